// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {SweepDelegate} from "./SweepDelegate.sol";

/// @title CREATE2 deployer of sweep delegates
/// @notice The delegate of (hotWallet, operator) has an address known before it is deployed, so
/// deposit addresses can sign authorizations for it at once.
contract DelegateFactory {
    event DelegateDeployed(address indexed delegate, address indexed hotWallet, address indexed operator);

    /// @notice Deploys the delegate, or returns it without deploying again when it already has
    /// code: a retried deployment then succeeds instead of failing (DelegateDeployed is
    /// emitted only by the deployment that created it).
    function deploy(address hotWallet, address operator) external returns (address delegate) {
        delegate = delegateAddress(hotWallet, operator);
        if (delegate.code.length != 0) return delegate;
        new SweepDelegate{salt: _salt(hotWallet, operator)}(hotWallet, operator);
        emit DelegateDeployed(delegate, hotWallet, operator);
    }

    function delegateAddress(address hotWallet, address operator) public view returns (address) {
        bytes32 initCodeHash =
            keccak256(abi.encodePacked(type(SweepDelegate).creationCode, abi.encode(hotWallet, operator)));
        bytes32 hash = keccak256(abi.encodePacked(bytes1(0xff), address(this), _salt(hotWallet, operator), initCodeHash));
        return address(uint160(uint256(hash)));
    }

    function _salt(address hotWallet, address operator) private pure returns (bytes32) {
        return keccak256(abi.encode(hotWallet, operator));
    }
}
