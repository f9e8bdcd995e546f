// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {DevToken} from "../DevToken.sol";

/// @notice Test token whose transfer always reverts.
contract RevertingToken is DevToken("Reverting", "REVERT", 18) {
    error TransfersDisabled();

    function transfer(address, uint256) public pure override returns (bool) {
        revert TransfersDisabled();
    }
}
