import { paginate, type Page } from "./pagination";

describe("paginate", () => {
  const pages: Record<string, Page<number>> = {
    first: { items: [1, 2], next_cursor: "b" },
    b: { items: [3], next_cursor: "c" },
    c: { items: [4, 5], next_cursor: null },
  };

  it("yields every item of every page, following next_cursor", async () => {
    const asked: Array<string | undefined> = [];
    const items: number[] = [];
    for await (const item of paginate(async (cursor) => (asked.push(cursor), pages[cursor ?? "first"]!))) items.push(item);
    expect(items).toEqual([1, 2, 3, 4, 5]);
    expect(asked).toEqual([undefined, "b", "c"]);
  });

  it("asks for no further page when the loop stops early", async () => {
    const asked: Array<string | undefined> = [];
    for await (const item of paginate(async (cursor) => (asked.push(cursor), pages[cursor ?? "first"]!))) if (item === 2) break;
    expect(asked).toEqual([undefined]);
  });

  it("ends on an empty list", async () => {
    const items: number[] = [];
    for await (const item of paginate(async () => ({ items: [] as number[], next_cursor: null }))) items.push(item);
    expect(items).toEqual([]);
  });
});
