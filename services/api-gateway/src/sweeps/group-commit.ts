/**
 * What a group commit needs to know of its rows: the keys two rows of one statement must not
 * share (an upsert may not touch one row twice in a statement), and the statement for one row or many.
 */
export interface GroupCommitOptions<I, R> {
  /** rows of one statement at most */
  maxRows: number;
  /** statements under way at once; rows that arrive meanwhile wait and go together in the next */
  maxStatements: number;
  /** keys no two rows of one statement share; a row whose key is taken waits for the next statement */
  keys: (item: I) => readonly string[];
  /** one statement for these rows: each one's result, in their order */
  statement: (items: readonly I[]) => Promise<R[]>;
  /** a statement of many failed (its rows are then written alone, so only the row at fault fails): for the log */
  manyFailed: (err: unknown, rows: number) => void;
}

interface Waiting<I, R> {
  item: I;
  resolve: (result: R) => void;
  reject: (err: unknown) => void;
}

/**
 * Rows written by concurrent requests share one statement: while `maxStatements` are under way,
 * new rows wait and then go together, so a busy API pays one round trip, one commit and one
 * key-share lock of the partner's row per statement instead of per row, and a quiet one writes
 * each row at once (no timer, no added wait).
 */
export class GroupCommit<I, R> {
  private readonly waiting: Array<Waiting<I, R>> = [];
  private underWay = 0;

  constructor(private readonly options: GroupCommitOptions<I, R>) {}

  write(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    while (this.underWay < this.options.maxStatements && this.waiting.length > 0) {
      const rows = takeStatement(this.waiting, this.options.keys, this.options.maxRows);
      this.underWay += 1;
      void this.commit(rows).finally(() => {
        this.underWay -= 1;
        this.next();
      });
    }
  }

  private async commit(rows: Array<Waiting<I, R>>): Promise<void> {
    if (rows.length === 1) return this.alone(rows[0]!);
    let results: R[];
    try {
      results = await this.options.statement(rows.map((row) => row.item));
    } catch (err) {
      // The statement wrote nothing: each row again alone, so one bad row (or a deadlock between
      // two statements) fails no other request.
      this.options.manyFailed(err, rows.length);
      await Promise.all(rows.map((row) => this.alone(row)));
      return;
    }
    rows.forEach((row, i) => row.resolve(results[i]!));
  }

  private alone(row: Waiting<I, R>): Promise<void> {
    return this.options.statement([row.item]).then(([result]) => row.resolve(result!), row.reject);
  }
}

/**
 * Takes from `waiting`, in order, up to `maxRows` rows that share no key, leaving the others in
 * order for a later statement. A row left behind also holds back the later rows that share a key
 * with it, so rows of one key are written in their arrival order. The first row is always taken.
 */
export function takeStatement<T extends { item: I }, I>(waiting: T[], keys: (item: I) => readonly string[], maxRows: number): T[] {
  const taken: T[] = [];
  const left: T[] = [];
  const used = new Set<string>();
  const heldBack = new Set<string>();
  let i = 0;
  for (; i < waiting.length && taken.length < maxRows; i++) {
    const row = waiting[i]!;
    const rowKeys = keys(row.item);
    const free = !rowKeys.some((key) => used.has(key) || heldBack.has(key));
    (free ? taken : left).push(row);
    rowKeys.forEach((key) => (free ? used : heldBack).add(key));
  }
  waiting.splice(0, i, ...left);
  return taken;
}
