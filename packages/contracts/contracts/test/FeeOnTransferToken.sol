// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {DevToken} from "../DevToken.sol";

/// @notice Test token that burns 1% of every transfer (rounded down), as fee-on-transfer tokens
/// keep part of what is sent: the recipient gets less than the amount transferred.
contract FeeOnTransferToken is DevToken("Fee on transfer", "FEE", 18) {
    function _update(address from, address to, uint256 value) internal override {
        uint256 fee = from == address(0) || to == address(0) ? 0 : value / 100;
        if (fee != 0) super._update(from, address(0), fee);
        super._update(from, to, value - fee);
    }
}
