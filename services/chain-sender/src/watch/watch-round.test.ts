import { watchRound } from "./watch-round";

describe("a watcher round's final block", () => {
  const counting = (answer: (head: number) => Promise<number>) => {
    const heads: number[] = [];
    return { heads, client: { finalBlock: (head: number) => (heads.push(head), answer(head)) } };
  };

  it("is read only when asked, once however often, at the round's head", async () => {
    const { heads, client } = counting(async (head) => head - 63);
    const round = watchRound(client, 500);
    expect(heads).toEqual([]);
    expect(await Promise.all([round.final(), round.final(), round.final()])).toEqual([437, 437, 437]);
    expect(heads).toEqual([500]);
  });

  it("fails every asker of the round alike when the node names no final block, and is read afresh next round", async () => {
    let named = false;
    const { heads, client } = counting(async (head) => {
      if (!named) throw new Error("the node names no finalized block");
      return head - 1;
    });
    const round = watchRound(client, 10);
    await expect(round.final()).rejects.toThrow("no finalized block");
    await expect(round.final()).rejects.toThrow("no finalized block");
    named = true;
    expect(await watchRound(client, 11).final()).toBe(10);
    expect(heads).toEqual([10, 11]);
  });
});
