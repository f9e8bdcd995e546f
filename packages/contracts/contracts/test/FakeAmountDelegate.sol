// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @notice What an address that re-delegated away from the sweep delegate can run: it answers
/// any call, sweepAccount included, with a large amount and moves nothing.
contract FakeAmountDelegate {
    uint256 public constant FAKE_AMOUNT = 1e30;

    fallback(bytes calldata) external returns (bytes memory) {
        return abi.encode(FAKE_AMOUNT);
    }
}
