import * as z from 'zod/mini';
import { LOCALES, THEME_CHOICES } from './contract';

/**
 * The events of the shell's bus. The shell is the only writer of session, wallet, theme, locale
 * and route state; remotes read them and send commands. Everything that crosses the boundary is
 * validated with these schemas.
 */

export const localeSchema = z.enum(LOCALES);
export type Locale = z.infer<typeof localeSchema>;

export const themeChoiceSchema = z.enum(THEME_CHOICES);
export type ThemeChoice = z.infer<typeof themeChoiceSchema>;
export const themeStateSchema = z.object({ choice: themeChoiceSchema, resolved: z.enum(['light', 'dark']) });
export type ThemeState = z.infer<typeof themeStateSchema>;

export const sessionUserSchema = z.object({
  id: z.union([z.string(), z.number()]),
  name: z.optional(z.nullable(z.string())),
  login: z.string(),
  role: z.optional(z.nullable(z.string())),
  metaMaskAddress: z.optional(z.nullable(z.string())),
  avatar: z.optional(z.nullable(z.string())),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const sessionStateSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('unknown') }),
  /** `reason: 'logout'` when the user ended the session, as opposed to never having one. */
  z.object({ status: z.literal('anonymous'), reason: z.optional(z.literal('logout')) }),
  z.object({ status: z.literal('authenticated'), user: sessionUserSchema }),
]);
export type SessionState = z.infer<typeof sessionStateSchema>;

/** Balances in base units as decimal strings, by currency (spec §3: default 0). */
export const walletStateSchema = z.object({
  connected: z.boolean(),
  chainId: z.nullable(z.int()),
  account: z.nullable(z.string()),
  balances: z.record(z.string(), z.string()),
});
export type WalletState = z.infer<typeof walletStateSchema>;

export const routeStateSchema = z.object({
  pathname: z.string(),
  search: z.string(),
  hash: z.string(),
  state: z.optional(z.unknown()),
  key: z.string(),
});
export type RouteState = z.infer<typeof routeStateSchema>;

export const notificationKindSchema = z.enum(['success', 'error', 'warning', 'info']);
export const notificationSchema = z.object({
  kind: notificationKindSchema,
  title: z.optional(z.string().check(z.maxLength(200))),
  message: z.string().check(z.maxLength(2000)),
  /** An optional link, e.g. a transaction on the block explorer. */
  link: z.optional(z.object({ href: z.url(), label: z.string().check(z.maxLength(200)) })),
});
export type Notification = z.infer<typeof notificationSchema>;

/** What a remote (or the shell itself) asks the shell to do. */
export const busCommandSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('wallet/connect') }),
  z.object({ type: z.literal('session/logout') }),
  /** Sign in (or sign up through an invite) with the wallet: connect if needed, SIWE, /login-v2. */
  z.object({ type: z.literal('session/wallet-sign-in'), invite: z.optional(z.string().check(z.maxLength(64))), source: z.optional(z.string().check(z.maxLength(200))) }),
  z.object({ type: z.literal('navigate'), to: z.string().check(z.startsWith('/')), replace: z.optional(z.boolean()), state: z.optional(z.unknown()) }),
  z.object({ type: z.literal('history/go'), delta: z.int() }),
  z.object({ type: z.literal('notify'), notification: notificationSchema }),
  z.object({ type: z.literal('theme/set'), choice: themeChoiceSchema }),
  z.object({ type: z.literal('locale/set'), locale: localeSchema }),
  z.object({ type: z.literal('modal/terms') }),
  /** The user's profile changed (name, e-mail, avatar, wallet): the shell reads it again from the server. */
  z.object({ type: z.literal('session/reload-user') }),
]);
export type BusCommand = z.infer<typeof busCommandSchema>;
