import { L1_BLOCK_ADDRESS, L1_BLOCK_SLOTS, packScalars, type L1BlockFees } from "@sweep/fees";
import { toBeHex } from "ethers";
import { nodeRpc } from "./anvil";

/**
 * Base's scalars (baseFeeScalar 2,269, blobBaseFeeScalar 1,055,762) at a 5 gwei L1 base fee and a
 * 3,000,000 wei blob base fee: what an OP-stack test chain charges for L1 data.
 */
export const REALISTIC_L1_BLOCK_FEES: L1BlockFees = { l1BaseFee: 5_000_000_000n, blobBaseFee: 3_000_000n, baseFeeScalar: 2_269n, blobBaseFeeScalar: 1_055_762n };

/**
 * Sets the fee values of an OP-stack node's L1Block predeploy: no sequencer writes them on a local
 * node (anvil in optimism mode has only storage there), and both anvil and Hardhat 3 charge by its
 * storage from the next block on. hardhat_setStorageAt: both take hardhat's name.
 */
export async function setL1BlockFees(rpcUrl: string, fees: L1BlockFees): Promise<void> {
  const slots: Array<[bigint, bigint]> = [
    [L1_BLOCK_SLOTS.l1BaseFee, fees.l1BaseFee],
    [L1_BLOCK_SLOTS.scalars, packScalars(fees)],
    [L1_BLOCK_SLOTS.blobBaseFee, fees.blobBaseFee],
  ];
  for (const [slot, value] of slots) await nodeRpc(rpcUrl, "hardhat_setStorageAt", [L1_BLOCK_ADDRESS, toBeHex(slot, 32), toBeHex(value, 32)]);
}
