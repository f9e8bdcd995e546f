import { createDb } from "@sweep/db";
import { Wallet } from "ethers";
import { createTestDatabase } from "./test-database";
import { startTestChain } from "./test-chains";
import { createTestPartner } from "./test-partner";

describe("testkit", () => {
  it("gives a chain with the platform contracts, a funded address and minted USDT", async () => {
    const chain = await startTestChain(97);
    try {
      const who = Wallet.createRandom().address;
      await chain.setBalance(who, 10n ** 18n);
      await chain.mintUsdt(who, 5n);
      expect(await chain.provider.getBalance(who)).toBe(10n ** 18n);
      expect(await chain.provider.getCode(chain.usdt.address)).not.toBe("0x");
    } finally {
      await chain.stop();
    }
  });

  it("copies the migrated template into a database of its own, with a partner whose key decrypts", async () => {
    const database = await createTestDatabase();
    const db = createDb(database.url);
    try {
      const partner = await createTestPartner(db);
      expect(partner.signer.address).toBe(partner.gasWallet);
      expect(await db.partner.count()).toBe(1);
    } finally {
      await db.$disconnect();
      await database.drop();
    }
  });
});
