import { LedgerListQuery, presentLedgerEntry, type LedgerEntry } from "@sweep/api-contract";
import { formatEther } from "ethers";
import type { Db } from "@sweep/db";
import { Router } from "express";
import { partnerOf } from "../auth/authenticate";
import { listLedgerEntries } from "../ledger/queries";
import { ledgerCursors } from "../lists/cursor";
import { parsePageRequest } from "../lists/page";

export interface LedgerCsvDeps {
  db: Db;
  chains: ReadonlyMap<number, { nativeTicker: string }>;
}

/** GET /v1/ledger's fields in wei, then the same amounts in coins (exact decimals) and the coin's ticker, for a spreadsheet's reader. */
const COLUMNS = ["id", "created_at", "chain_id", "kind", "amount", "balance_after", "paid_for", "batch_id", "tx_hash", "sweep_id", "note", "coin", "amount_coin", "balance_after_coin"] as const;
/** GET /v1/ledger's largest page: the export reads the ledger as the API pages it. */
const PAGE = 200;
/** The filters of GET /v1/ledger, without its paging (the export has every page). */
const CsvQuery = LedgerListQuery.omit({ limit: true, cursor: true });

/** RFC 4180: a cell with a comma, quote or line break is quoted, its quotes doubled. */
export function csvCell(value: string | number | null): string {
  if (value === null) return "";
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * A note is free text: one starting with = + - @ (or a tab or carriage return) would be a formula
 * in a spreadsheet, so it gets a leading apostrophe (OWASP's CSV injection advice). Amounts keep
 * their minus: they are numbers, and a spreadsheet reads them as such.
 */
export function safeNote(note: string | null): string | null {
  return note !== null && /^[=+\-@\t\r]/.test(note) ? `'${note}` : note;
}

export function csvRow(entry: LedgerEntry, coin: string): string {
  const cells: Record<(typeof COLUMNS)[number], string | number | null> = {
    ...entry,
    paid_for: entry.paid_for?.kind ?? null,
    batch_id: entry.paid_for?.batch_id ?? null,
    note: safeNote(entry.note),
    coin,
    amount_coin: coins(entry.amount),
    balance_after_coin: coins(entry.balance_after),
  };
  return COLUMNS.map((column) => csvCell(cells[column])).join(",") + "\r\n";
}

/** Wei as a decimal of whole coins, exact ("-0.00052", "1"). */
export function coins(wei: string): string {
  return formatEther(BigInt(wei)).replace(/\.0$/, "");
}

/** The ledger as CSV: GET /v1/ledger's query and filters (the time range too), every page, newest first. */
export function ledgerCsvRoutes(deps: LedgerCsvDeps): Router {
  const router = Router();

  router.get("/console/api/ledger.csv", async (req, res) => {
    const partnerId = partnerOf(res).partnerId;
    const { query } = parsePageRequest(CsvQuery, req.query, ledgerCursors, deps.chains);
    let page = await listLedgerEntries(deps.db, partnerId, { query, below: null, limit: PAGE });
    res.type("text/csv; charset=utf-8").set({ "Content-Disposition": 'attachment; filename="ledger.csv"', "Cache-Control": "no-store" });
    res.write(COLUMNS.join(",") + "\r\n");
    for (;;) {
      res.write(page.items.map((entry) => csvRow(presentLedgerEntry(entry), deps.chains.get(entry.chainId)?.nativeTicker ?? "")).join(""));
      if (page.nextCursor === null) break;
      page = await listLedgerEntries(deps.db, partnerId, { query, below: ledgerCursors.decode(page.nextCursor), limit: PAGE });
    }
    res.end();
  });

  return router;
}
