/**
 * sweepctl, the operators' command line (`pnpm sweepctl <noun> <verb>`). Each command lives in its
 * own module; this file only maps the command line onto them. `--json` prints machine-readable
 * JSON on stdout. Errors are one line on stderr: exit code 1, or 2 for a malformed command line.
 */
import { Command, CommanderError, InvalidArgumentError } from "commander";
import { createConsoleUser, setConsoleUserEnabled } from "./console-user-commands";
import { openContext, type CommandContext } from "./context";
import { showDevnetInfo, resetDevnetCommand } from "./devnet-commands";
import { withdrawFees } from "./fees-commands";
import { listDeadLetterQueues, purgeDeadLetters, replayDeadLetters, showDeadLetters } from "./dlq-commands";
import { importGasWalletKey } from "./gas-wallet-commands";
import { drainGasWallet } from "./gas-wallet-drain";
import { createKey, revokeKey } from "./key-commands";
import { bookAdjustment, type Adjustment, type AdjustmentOptions } from "./ledger-commands";
import { consoleOutput } from "./output";
import { createPartner, setPartnerEnabled } from "./partner-commands";
import { deployPlatform } from "./platform-commands";
import { measureTariff } from "./tariff-commands";

const program = new Command("sweepctl")
  .description("operate the sweep service: partners, API keys, console users, ledgers, fee withdrawals, tariffs, the platform's contracts, the local devnet, dead letters")
  .option("--json", "print machine-readable JSON on stdout")
  .exitOverride();

const partner = program.command("partner").description("partners, each with its gas wallet and API keys");
partner
  .command("create")
  .description("create a partner with its gas wallet and a first API key (printed once)")
  .requiredOption("--name <name>", "the partner's name")
  .action((options: { name: string }) => run((ctx) => createPartner(ctx, options.name)));
partner
  .command("disable <partner-id>")
  .description("refuse every request of the partner (403)")
  .action((id: string) => run((ctx) => setPartnerEnabled(ctx, id, false)));
partner
  .command("enable <partner-id>")
  .description("accept the partner's requests again")
  .action((id: string) => run((ctx) => setPartnerEnabled(ctx, id, true)));

const gasWallet = program.command("gas-wallet").description("partners' gas wallets and where their keys are held");
gasWallet
  .command("import")
  .description("move the partner's sealed gas wallet key into the PKCS#11 token (GAS_WALLET_KEYS=pkcs11): same address, the sealed copy cleared from the database")
  .requiredOption("--partner <partner-id>", "the partner whose gas wallet it is")
  .action((options: { partner: string }) => run((ctx) => importGasWalletKey(ctx, options.partner)));
gasWallet
  .command("drain")
  .description("send all a disabled partner's gas wallet holds but the fees due to an address (the partner's new gas wallet after a key rotation), on every chain or one")
  .requiredOption("--partner <partner-id>", "the partner whose gas wallet it is")
  .requiredOption("--to <address>", "where the balance goes")
  .option("--chain <chain-id>", "only this chain of the environment")
  .action((options: { partner: string; to: string; chain?: string }) => run((ctx) => drainGasWallet(ctx, options)));

const key = program.command("key").description("partners' API keys");
key
  .command("create <partner-id>")
  .description("create another API key for the partner (printed once)")
  .action((id: string) => run((ctx) => createKey(ctx, id)));
key
  .command("revoke <key-id>")
  .description("revoke an API key, given by its id or display prefix (svc_test_ab12cd), which keep it out of shell history, or as the key itself")
  .action((keyOrId: string) => run((ctx) => revokeKey(ctx, keyOrId)));

const consoleUser = program.command("console-user").description("people who sign in to the partner console");
consoleUser
  .command("create")
  .description("a console user of the partner (or, for an existing email, a password reset) and its one-time sign-in link, valid 24 h; CONSOLE_URL names the console")
  .requiredOption("--partner <partner-id>", "the partner whose console the user signs in to")
  .requiredOption("--email <email>", "the user's email address, which signs in")
  .action((options: { partner: string; email: string }) => run((ctx) => createConsoleUser(ctx, options.partner, options.email)));
consoleUser
  .command("disable")
  .description("end the console user's sessions at once and refuse its sign-ins and links")
  .requiredOption("--email <email>", "the user's email address")
  .action((options: { email: string }) => run((ctx) => setConsoleUserEnabled(ctx, options.email, false)));
consoleUser
  .command("enable")
  .description("let a disabled console user sign in again")
  .requiredOption("--email <email>", "the user's email address")
  .action((options: { email: string }) => run((ctx) => setConsoleUserEnabled(ctx, options.email, true)));

const ledger = program.command("ledger").description("partners' ledgers: charges and credits under their agreements");
for (const [adjustment, description] of [
  ["charge", "charge the partner: a fee_charge entry that adds WEI to its fees due"],
  ["credit", "credit the partner: a fee_credit entry that takes WEI from its fees due"],
] as Array<[Adjustment, string]>) {
  ledger
    .command(`${adjustment} <partner-id>`)
    .description(description)
    .requiredOption("--chain <chain-id>", "a chain of the partner's environment")
    .requiredOption("--amount <wei>", "a positive whole number of wei")
    .requiredOption("--note <text>", "why, for the partner's ledger")
    .action((id: string, options: AdjustmentOptions) => run((ctx) => bookAdjustment(ctx, adjustment, id, options)));
}

const fees = program.command("fees").description("the platform's fees kept on the partners' gas wallets");
fees
  .command("withdraw")
  .description(
    "a withdrawal batch for each gas wallet with fees due and none under way, sending them to the chain's TREASURY_ADDRESS_<chain_id>; " +
      "writes the batches and their batch.ready messages to the outbox, which the running services' outbox relay publishes to the chain-sender",
  )
  .option("--chain <chain-id>", "only this chain of the environment (default: every chain)")
  .action((options: { chain?: string }) => run((ctx) => withdrawFees(ctx, options)));

const tariff = program.command("tariff").description("the fee tariff's classic benchmarks");
tariff
  .command("measure")
  .description("measure the classic sweep of each testnet chain's tokens on fresh local chains; prints the figures and their configuration")
  .action(() => run((ctx) => measureTariff(ctx)));

const platform = program.command("platform").description("the platform's contracts on a real chain");
platform
  .command("deploy")
  .description(
    "deploy the delegate factory through the CREATE2 deployer (the same address on every chain) from DEPLOYER_KEY's account, " +
      "on the first answering endpoint of RPC_URL_<chain_id>; sends nothing when it is there; prints what the services on that chain need configured",
  )
  .requiredOption("--chain <chain-id>", "a chain of SERVICE_ENV")
  .action((options: { chain: string }) => run((ctx) => deployPlatform(ctx, options)));

const devnet = program.command("devnet").description("the local chains of `pnpm start`");
devnet
  .command("info")
  .description("each chain's RPC URL and tokens")
  .action(() => run(async (ctx) => showDevnetInfo(ctx)));
devnet
  .command("reset")
  .description("wipe the local chains' state and the database together (stop `pnpm start` first)")
  .action(() => run((ctx) => resetDevnetCommand(ctx)));

const dlq = program.command("dlq").description("dead-letter queues: messages that kept failing, or were refused as invalid (docs/runbook.md)");
dlq
  .command("list")
  .description("every dead-letter queue with its message count and the age of its oldest message")
  .action(() => run((ctx) => listDeadLetterQueues(ctx)));
dlq
  .command("show <queue>")
  .description("the first messages of a dead-letter queue, left in place: id, type, why it died, deliveries, payload")
  .option("--limit <n>", "how many", positiveInteger, 20)
  .action((queue: string, options: { limit: number }) => run((ctx) => showDeadLetters(ctx, queue, options.limit)));
dlq
  .command("replay <queue>")
  .description("send messages back to the work queue they died in, from the head (work already done is not done again)")
  .option("--limit <n>", "at most this many (default: all)", positiveInteger, Number.POSITIVE_INFINITY)
  .option("--id <message-id>", "only the message with this id")
  .action((queue: string, options: { limit: number; id?: string }) => run((ctx) => replayDeadLetters(ctx, queue, options)));
dlq
  .command("purge <queue>")
  .description("delete every message of a dead-letter queue (no confirmation asked; prints how many), or only those with --id")
  .option("--id <message-id>", "only the message with this id")
  .action((queue: string, options: { id?: string }) => run((ctx) => purgeDeadLetters(ctx, queue, options)));

async function run(command: (ctx: CommandContext) => Promise<void>): Promise<void> {
  const ctx = openContext(consoleOutput(program.opts<{ json?: boolean }>().json === true));
  try {
    await command(ctx);
  } finally {
    await ctx.close();
  }
}

function positiveInteger(value: string): number {
  if (!/^[1-9][0-9]*$/.test(value)) throw new InvalidArgumentError("expected a positive integer");
  return Number(value);
}

program.parseAsync().then(
  () => process.exit(0),
  (err: unknown) => {
    // Commander has printed its own one-line message (or the help it was asked for).
    if (err instanceof CommanderError) process.exit(err.exitCode === 0 ? 0 : 2);
    process.stderr.write(`sweepctl: ${errorLine(err)}\n`);
    if (process.env.LOG_LEVEL === "debug") console.error(err);
    process.exit(1);
  },
);

function errorLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const lines = message.split("\n").map((line) => line.trim()).filter((line) => line !== "");
  // Prisma's messages start with the calling code and end with the cause.
  const prisma = err instanceof Error && err.name.startsWith("PrismaClient");
  return (prisma ? `database: ${lines.at(-1)}` : lines[0]) ?? "unknown error";
}
