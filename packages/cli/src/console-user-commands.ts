import { consoleTokenHash, newConsoleToken, SIGN_IN_LINK_TTL_MS, signInUrl } from "@sweep/credentials";
import { z } from "zod";
import type { CommandContext } from "./context";
import { findPartner } from "./partner-commands";

const email = z.email().max(254);

function parseEmail(address: string): string {
  const parsed = email.safeParse(address.trim().toLowerCase());
  if (!parsed.success) throw new Error(`not an email address: ${JSON.stringify(address.slice(0, 80))}`);
  return parsed.data;
}

/**
 * `console-user create --partner ID --email E`: the partner's console user with this email (made
 * now, or found: then this is a password reset) and a one-time sign-in link, valid 24 h. Only the
 * link's hash is stored; the links issued before for the user stop working.
 */
export async function createConsoleUser(ctx: CommandContext, partnerId: string, address: string): Promise<void> {
  const partner = await findPartner(ctx.db, partnerId);
  const userEmail = parseEmail(address);
  const token = newConsoleToken();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + SIGN_IN_LINK_TTL_MS);

  const { user, created } = await ctx.db.$transaction(async (tx) => {
    const existing = await tx.consoleUser.findUnique({ where: { email: userEmail } });
    if (existing && existing.partnerId !== partner.id) throw new Error(`${userEmail} is a console user of another partner (${existing.partnerId})`);
    const user = existing ?? (await tx.consoleUser.create({ data: { partnerId: partner.id, email: userEmail } }));
    await tx.consoleSignInToken.updateMany({ where: { userId: user.id, usedAt: null, expiresAt: { gt: now } }, data: { expiresAt: now } });
    await tx.consoleSignInToken.create({ data: { userId: user.id, hash: consoleTokenHash(token), expiresAt } });
    return { user, created: !existing };
  });

  const url = signInUrl(ctx.config.CONSOLE_URL, token);
  const lines = [
    `${created ? "console user" : "new sign-in link for console user"} ${user.email} (id ${user.id}) of partner ${partner.id}`,
    `sign-in link (once, until ${expiresAt.toISOString()}): ${url}`,
    "Hand the link to the user only: whoever opens it first sets the password.",
  ];
  if (!created) lines.push("Earlier links of this user no longer work; the password stays until the link is used.");
  if (user.disabledAt) lines.push(`Note: this console user is disabled since ${user.disabledAt.toISOString()}; the link will be refused.`);
  if (!partner.enabled) lines.push(`Note: partner ${partner.id} is disabled; the console shows it as such.`);
  ctx.out.result({ user_id: user.id, email: user.email, partner_id: partner.id, sign_in_url: url, expires_at: expiresAt.toISOString() }, lines);
}

/**
 * `console-user disable|enable --email E`: a disabled user's sessions end at once (deleted here,
 * and refused by the gateway on their next request) and its sign-ins and links are refused.
 */
export async function setConsoleUserEnabled(ctx: CommandContext, address: string, enabled: boolean): Promise<void> {
  const userEmail = parseEmail(address);
  const user = await ctx.db.consoleUser.findUnique({ where: { email: userEmail } });
  if (!user) throw new Error(`no console user ${userEmail}`);
  const ended = await ctx.db.$transaction(async (tx) => {
    await tx.consoleUser.update({ where: { id: user.id }, data: { disabledAt: enabled ? null : (user.disabledAt ?? new Date()) } });
    return enabled ? 0 : (await tx.consoleSession.deleteMany({ where: { userId: user.id } })).count;
  });
  const state = enabled ? "enabled" : "disabled";
  ctx.out.result({ user_id: user.id, email: user.email, partner_id: user.partnerId, enabled, sessions_ended: ended }, [
    `console user ${user.email} (id ${user.id}) of partner ${user.partnerId} is ${state}${enabled ? "" : `; ${ended} session(s) ended`}`,
  ]);
}
