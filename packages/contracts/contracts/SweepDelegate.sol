// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @title Sweep delegate of one hot wallet
/// @notice Deposit addresses delegate to this contract through EIP-7702. The operator (the
/// partner's gas wallet) calls `sweepBatch` on the delegate itself; the delegate then calls
/// `sweepAccount` on each deposit address, which runs this same code in the deposit address's
/// context and can only send to the immutable hot wallet. An item's answer counts only when its
/// deposit address still delegates to this contract: an address that delegated elsewhere could
/// answer anything.
/// @dev No storage is used: the code runs in the storage of every deposit address that
/// delegates to it, so everything it needs is an immutable (part of the code).
contract SweepDelegate {
    error Unauthorized();
    error NothingToSweep();
    error TokenTransferFailed();
    error NativeTransferFailed();
    /// The batch's gas limit cannot give the next item its full ITEM_GAS: reverting rather
    /// than letting the item fail for want of gas makes eth_estimateGas find a limit that is
    /// enough for every item.
    error BatchGasTooLow();

    /// One event per item, in item order. `accountAndGas` packs the deposit address (low 160
    /// bits) and the gas the item used (high 96 bits): one word less per item than separate
    /// fields. `amount` is what was sent to the hot wallet; for a token marked FEE_ON_TRANSFER,
    /// what the hot wallet received.
    event Swept(uint256 accountAndGas, uint256 amount);
    /// `selector` is the error the item reverted with (Unauthorized when the deposit address does
    /// not delegate to this contract, so it was not called), or zero when it reverted without one.
    event SweepFailed(uint256 accountAndGas, bytes4 selector);

    /// Item encoding in `sweepBatch`, packed to keep calldata small. Each item is
    ///   flags (1 byte) | account (20 bytes) |
    ///   token options (1 byte) | token (20 bytes), both absent with SAME_TOKEN |
    ///   amount (flags & AMOUNT_LENGTH bytes, big-endian; none means the whole balance)
    /// The token and its options of an item with SAME_TOKEN are the previous item's; before the
    /// first item they are the native coin (zero address) and none.
    uint256 private constant KEEP_ONE_UNIT = 0x80;
    uint256 private constant SAME_TOKEN = 0x40;
    uint256 private constant AMOUNT_LENGTH = 0x3f;
    /// Token option: the token may keep part of a transfer, so its items call
    /// sweepAccountReceived, which reports what the hot wallet received. Its two more balance reads
    /// are paid by the tokens marked only.
    uint256 private constant FEE_ON_TRANSFER = 0x01;

    /// Most gas one item may use. Bounded so that a token that burns all the gas it gets costs
    /// one failed item, not the rest of the batch; ample for tokens behind proxies or with
    /// transfer hooks, and for a contract hot wallet receiving the native coin.
    uint256 private constant ITEM_GAS = 300_000;
    /// What must be left before an item: its ITEM_GAS, the 1/64 a call keeps back, and room for
    /// the cold access to the deposit address and the item's event.
    uint256 private constant ITEM_GAS_NEEDED = ITEM_GAS + ITEM_GAS / 63 + 10_000;

    address public immutable hotWallet;
    address public immutable operator;
    /// This contract's own address, kept as an immutable because in a deposit address's
    /// context `address(this)` is the deposit address.
    address public immutable self;
    /// EXTCODEHASH of an address that delegates to this contract: the hash of its EIP-7702
    /// designator 0xef0100 || self.
    bytes32 private immutable delegatedCodeHash;

    constructor(address hotWallet_, address operator_) {
        hotWallet = hotWallet_;
        operator = operator_;
        self = address(this);
        delegatedCodeHash = keccak256(abi.encodePacked(hex"ef0100", address(this)));
    }

    /// A delegated deposit address runs this code, so it must keep accepting plain transfers
    /// of the native coin.
    receive() external payable {}

    /// @notice Sweeps every item; a failing item is reported in its event and never reverts
    /// the batch.
    function sweepBatch(bytes calldata items) external {
        if (msg.sender != operator) revert Unauthorized();
        bytes4 sweepSelector = this.sweepAccount.selector;
        // A token's options byte turns sweepSelector into sweepAccountReceived's by this xor.
        bytes4 toReceivedSelector = sweepSelector ^ this.sweepAccountReceived.selector;
        bytes32 sweptTopic = Swept.selector;
        bytes32 failedTopic = SweepFailed.selector;
        bytes4 gasTooLow = BatchGasTooLow.selector;
        bytes4 unauthorized = Unauthorized.selector;
        bytes32 delegatedHash = delegatedCodeHash;
        uint256 itemGasNeeded = ITEM_GAS_NEEDED;
        assembly ("memory-safe") {
            // The call data of sweepAccount is built past the free memory pointer and reused
            // for every item, so memory does not grow with the batch.
            let call_ := mload(0x40)
            mstore(call_, sweepSelector)
            let p := items.offset
            let end := add(p, items.length)
            let token := 0
            for {} lt(p, end) {} {
                if lt(gas(), itemGasNeeded) {
                    mstore(0x00, gasTooLow)
                    revert(0x00, 0x04)
                }
                let head := calldataload(p)
                let flags := byte(0, head)
                let account := shr(96, shl(8, head))
                p := add(p, 21)
                if iszero(and(flags, SAME_TOKEN)) {
                    let tokenHead := calldataload(p)
                    token := shr(96, shl(8, tokenHead))
                    p := add(p, 21)
                    // Without a branch: the options byte's FEE_ON_TRANSFER bit is 0 or 1.
                    mstore(call_, xor(sweepSelector, mul(and(byte(0, tokenHead), FEE_ON_TRANSFER), toReceivedSelector)))
                }
                let amountLength := and(flags, AMOUNT_LENGTH)
                // A shift by 256 gives 0: no amount bytes means the whole balance.
                let amount := shr(sub(256, shl(3, amountLength)), calldataload(p))
                p := add(p, amountLength)
                mstore(add(call_, 4), token)
                mstore(add(call_, 36), amount)
                mstore(add(call_, 68), gt(and(flags, KEEP_ONE_UNIT), 0))

                let gasBefore := gas()
                // Only an address running this code answers with what it sent; one without code
                // or delegating elsewhere could answer anything, so it is not called and fails
                // Unauthorized. The check warms the address for the call: it adds a warm access
                // (100 gas), not a cold one.
                if iszero(eq(extcodehash(account), delegatedHash)) {
                    mstore(0x00, or(account, shl(160, sub(gasBefore, gas()))))
                    mstore(0x20, unauthorized)
                    log1(0x00, 0x40, failedTopic)
                    continue
                }
                let ok := call(ITEM_GAS, account, 0, call_, 100, 0x20, 0x20)
                let accountAndGas := or(account, shl(160, sub(gasBefore, gas())))
                mstore(0x00, accountAndGas)
                switch ok
                case 1 { log1(0x00, 0x40, sweptTopic) }
                default {
                    mstore(0x20, 0)
                    if gt(returndatasize(), 3) { returndatacopy(0x20, 0, 4) }
                    log1(0x00, 0x40, failedTopic)
                }
            }
        }
    }

    /// @notice Moves one asset of the deposit address running this code to the hot wallet.
    /// @param token ERC-20 contract, or the zero address for the native coin
    /// @param amount amount to move; 0 moves the whole balance
    /// @param keepOneUnit leave 1 smallest unit of the token (ignored for the native coin)
    /// @return the amount sent to the hot wallet
    function sweepAccount(address token, uint256 amount, bool keepOneUnit) external returns (uint256) {
        if (msg.sender != self) revert Unauthorized();
        if (token == address(0)) return _sweepNative(amount);
        return _sweepToken(token, amount, keepOneUnit);
    }

    /// @notice As sweepAccount, for a token that may keep part of a transfer (FEE_ON_TRANSFER).
    /// @return what the hot wallet received: its balance after the transfer less before
    function sweepAccountReceived(address token, uint256 amount, bool keepOneUnit) external returns (uint256) {
        if (msg.sender != self) revert Unauthorized();
        if (token == address(0)) return _sweepNative(amount);
        uint256 hotBefore = _balanceOf(token, hotWallet);
        _sweepToken(token, amount, keepOneUnit);
        // Checked: a hot wallet balance that fell reverts the item, its transfer included.
        return _balanceOf(token, hotWallet) - hotBefore;
    }

    function _sweepNative(uint256 amount) private returns (uint256) {
        uint256 balance = address(this).balance;
        if (balance == 0) revert NothingToSweep();
        if (amount == 0) amount = balance;
        // All gas is forwarded: the hot wallet may be a contract wallet with a costly receive.
        (bool ok,) = hotWallet.call{value: amount}("");
        if (!ok) revert NativeTransferFailed();
        return amount;
    }

    function _sweepToken(address token, uint256 amount, bool keepOneUnit) private returns (uint256) {
        // The balance is read only when needed, to save a call on explicit amounts.
        if (amount == 0 || keepOneUnit) {
            uint256 available = _balanceOf(token, address(this));
            if (keepOneUnit && available != 0) --available;
            if (available == 0) revert NothingToSweep();
            if (amount == 0) amount = available;
            else if (amount > available) revert TokenTransferFailed();
        }
        if (!_transfer(token, amount)) {
            // Tell an empty address from a failing token only on this rare path.
            if (_balanceOf(token, address(this)) == 0) revert NothingToSweep();
            revert TokenTransferFailed();
        }
        return amount;
    }

    function _balanceOf(address token, address owner) private view returns (uint256 tokenBalance) {
        bool ok;
        assembly ("memory-safe") {
            mstore(0x00, shl(224, 0x70a08231)) // balanceOf(address)
            mstore(0x04, owner)
            ok := staticcall(gas(), token, 0x00, 0x24, 0x00, 0x20)
            ok := and(ok, gt(returndatasize(), 0x1f))
            tokenBalance := mload(0x00)
        }
        if (!ok) revert TokenTransferFailed();
    }

    /// Accepts tokens that return true, and tokens that return nothing (such as USDT on
    /// Ethereum) provided the token has code; false, a revert or no code fail.
    function _transfer(address token, uint256 amount) private returns (bool ok) {
        address to = hotWallet;
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, shl(224, 0xa9059cbb)) // transfer(address,uint256)
            mstore(add(m, 0x04), to)
            mstore(add(m, 0x24), amount)
            ok := call(gas(), token, 0, m, 0x44, 0x00, 0x20)
            if ok {
                switch returndatasize()
                case 0 { ok := gt(extcodesize(token), 0) }
                default { ok := and(gt(returndatasize(), 0x1f), eq(mload(0x00), 1)) }
            }
        }
    }
}
