import { GroupCommit, takeStatement } from "./group-commit";

describe("takeStatement", () => {
  // Rows are written "name:key,key"; a statement takes rows that share no key, in order.
  type Row = { item: { name: string; keys: string[] } };
  const rows = (spec: string): Row[] => spec.split(" ").map((row) => ({ item: { name: row.split(":")[0]!, keys: row.split(":")[1]!.split(",") } }));
  const names = (taken: Array<{ item: { name: string } }>) => taken.map((row) => row.item.name).join(" ");
  const cases: Array<{ why: string; waiting: string; maxRows: number; taken: string; left: string }> = [
    { why: "all rows when no key repeats", waiting: "a:1 b:2 c:3", maxRows: 10, taken: "a b c", left: "" },
    { why: "up to maxRows, the rest in order", waiting: "a:1 b:2 c:3 d:4", maxRows: 2, taken: "a b", left: "c d" },
    { why: "a row whose key is taken waits", waiting: "a:1 b:1 c:2", maxRows: 10, taken: "a c", left: "b" },
    { why: "any shared key holds a row back", waiting: "a:1,x b:2,x c:3", maxRows: 10, taken: "a c", left: "b" },
    { why: "a row held back holds back later rows of its keys (their order)", waiting: "a:1 b:1,2 c:2 d:3", maxRows: 10, taken: "a d", left: "b c" },
    { why: "the first row always goes", waiting: "a:1", maxRows: 1, taken: "a", left: "" },
    { why: "rows past a full statement are not looked at", waiting: "a:1 b:1 c:2 d:3", maxRows: 2, taken: "a c", left: "b d" },
  ];
  it.each(cases)("$why", ({ waiting, maxRows, taken, left }) => {
    const queue = rows(waiting);
    expect(names(takeStatement(queue, (item: Row["item"]) => item.keys, maxRows))).toBe(taken);
    expect(names(queue)).toBe(left);
  });
});

describe("GroupCommit", () => {
  /** Statements that finish when the test says so, recorded in order. */
  function statements() {
    const started: Array<{ rows: number[]; finish: () => void; fail: (err: Error) => void }> = [];
    const record = (rows: number[]) =>
      new Promise<number[]>((resolve, reject) => {
        started.push({ rows, finish: () => resolve(rows.map((n) => n * 10)), fail: reject });
      });
    return { started, statement: (items: readonly number[]) => record([...items]) };
  }
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it("writes a row at once when no statement is under way, and the rows that arrive meanwhile together", async () => {
    const s = statements();
    const commit = new GroupCommit({ maxRows: 10, maxStatements: 1, keys: (n: number) => [String(n)], statement: s.statement, manyFailed: () => {} });
    const first = commit.write(1);
    const later = [commit.write(2), commit.write(3), commit.write(4)];
    expect(s.started.map((st) => st.rows)).toEqual([[1]]);
    s.started[0]!.finish();
    await expect(first).resolves.toBe(10);
    await settle();
    expect(s.started.map((st) => st.rows)).toEqual([[1], [2, 3, 4]]);
    s.started[1]!.finish();
    await expect(Promise.all(later)).resolves.toEqual([20, 30, 40]);
  });

  it("keeps up to maxStatements under way and rows of one key apart", async () => {
    const s = statements();
    const commit = new GroupCommit({ maxRows: 10, maxStatements: 2, keys: (n: number) => [String(n % 2)], statement: s.statement, manyFailed: () => {} });
    const writes = [1, 2, 3, 4, 5].map((n) => commit.write(n));
    // 1 and 2 each start a statement at once; 3, 4 and 5 wait, and an odd and an even go together.
    expect(s.started.map((st) => st.rows)).toEqual([[1], [2]]);
    s.started[0]!.finish();
    await settle();
    expect(s.started.map((st) => st.rows)).toEqual([[1], [2], [3, 4]]);
    s.started[1]!.finish();
    await settle();
    expect(s.started.map((st) => st.rows)).toEqual([[1], [2], [3, 4], [5]]);
    s.started[2]!.finish();
    s.started[3]!.finish();
    await expect(Promise.all(writes)).resolves.toEqual([10, 20, 30, 40, 50]);
  });

  it("writes each row of a failed statement alone, so only the row at fault fails", async () => {
    const s = statements();
    const failures: string[] = [];
    const commit = new GroupCommit({ maxRows: 10, maxStatements: 1, keys: (n: number) => [String(n)], statement: s.statement, manyFailed: (err, rows) => failures.push(`${String(err)} (${rows} rows)`) });
    const writes = [1, 2, 3].map((n) => commit.write(n).then(String, (err: Error) => err.message));
    s.started[0]!.finish();
    await settle();
    s.started[1]!.fail(new Error("deadlock detected"));
    await settle();
    expect(s.started.map((st) => st.rows)).toEqual([[1], [2, 3], [2], [3]]);
    expect(failures).toEqual(["Error: deadlock detected (2 rows)"]);
    s.started[2]!.fail(new Error("row 2 refused"));
    s.started[3]!.finish();
    await expect(Promise.all(writes)).resolves.toEqual(["10", "row 2 refused", "30"]);
  });
});
