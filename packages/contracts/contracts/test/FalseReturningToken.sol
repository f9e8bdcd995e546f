// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {DevToken} from "../DevToken.sol";

/// @notice Test token whose transfer returns false instead of reverting.
contract FalseReturningToken is DevToken("False Returning", "FALSE", 18) {
    function transfer(address, uint256) public pure override returns (bool) {
        return false;
    }
}
