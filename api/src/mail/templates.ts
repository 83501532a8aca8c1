import type { Lang } from '@app/contracts';
import type { MailBrand } from './brand';

export type MailKind =
  | 'approve'
  | 'recovery'
  | 'password-changed'
  | 'email-change'
  | 'email-changed'
  | 'owner-code'
  | 'wallet-changed'
  | MoneyMailKind;
/** Mails about money, each of which the user can switch off (security notices cannot be). */
export type MoneyMailKind = 'deposit-credited' | 'withdrawal-paid' | 'withdrawal-returned' | 'claim-paid' | 'claim-returned' | 'withdrawal-held';
/** Why a withdrawal came back to the balance (the part of `withdrawals.reason` before any ':'). */
export type ReturnReason = 'PAYOUT_REVERTED' | 'PAYOUT_DROPPED' | 'PAYOUT_RECIPIENT_REVERTS' | 'PAYOUT_CANCELLED' | 'REJECTED';
/**
 * `sessions` (password-changed): which sessions the change ended: `all` (recovery by code ends
 * every one), `others` (the settings, asked to end the others), `none` (the settings, others kept).
 */
export type SessionsEnded = 'all' | 'others' | 'none';
export type MailVars = {
  title: string;
  /** The brand's sender, colours and address; without it the mail is plain, from MAIL_FROM. */
  brand?: MailBrand;
  code?: string;
  link?: string;
  minutes?: number;
  wallet?: string;
  /** email-changed: the new login. */
  email?: string;
  sessions?: SessionsEnded;
  /** A change of a credential: when the held payouts may go again (ISO). */
  heldUntil?: string;
  /** A withdrawal: its amount in whole units (e.g. 0.25), currency, pool and why it was returned. */
  amount?: string;
  currency?: string;
  pool?: string;
  reason?: ReturnReason;
  /** A payout's transaction on the block explorer. */
  explorer?: string;
};

const returnReasons: Record<'en' | 'ru', Record<ReturnReason, string>> = {
  en: {
    PAYOUT_REVERTED: 'the transaction failed on chain',
    PAYOUT_DROPPED: 'the network dropped the transaction',
    PAYOUT_RECIPIENT_REVERTS: 'your wallet refused the transfer twice',
    PAYOUT_CANCELLED: 'the transaction could not be sent and was cancelled',
    REJECTED: 'the operator declined it',
  },
  ru: {
    PAYOUT_REVERTED: 'транзакция не прошла в блокчейне',
    PAYOUT_DROPPED: 'сеть отбросила транзакцию',
    PAYOUT_RECIPIENT_REVERTS: 'ваш кошелёк дважды отказался принять перевод',
    PAYOUT_CANCELLED: 'транзакцию не удалось отправить, и она отменена',
    REJECTED: 'оператор отклонил его',
  },
};
type Rendered = { subject: string; text: string };

const utc = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;
const enHold = (v: MailVars) => (v.heldUntil ? `\n\nWithdrawals wait until ${utc(v.heldUntil)}, so that money cannot leave before you can react.` : '');
const ruHold = (v: MailVars) => (v.heldUntil ? `\n\nВыводы средств ждут до ${utc(v.heldUntil)}, чтобы деньги не ушли раньше, чем вы успеете вмешаться.` : '');

// Mails about money say where to switch them off.
const enSwitch = (v: MailVars) => `\n\nYou can switch these mails off in the settings (${v.link?.replace(/\/cabinet\/.*$/, '') ?? ''}/cabinet/settings).`;
const ruSwitch = (v: MailVars) => `\n\nЭти письма можно отключить в настройках (${v.link?.replace(/\/cabinet\/.*$/, '') ?? ''}/cabinet/settings).`;

const enSessions: Record<SessionsEnded, string> = {
  all: 'Every session was signed out.',
  others: 'Every other session was signed out; the one that changed it stays signed in.',
  none: 'Your other sessions stay signed in: end them in the settings if you do not know them.',
};
const ruSessions: Record<SessionsEnded, string> = {
  all: 'Все сеансы завершены.',
  others: 'Все остальные сеансы завершены; сеанс, в котором его сменили, продолжается.',
  none: 'Остальные сеансы продолжаются: завершите их в настройках, если они вам незнакомы.',
};

const en: Record<MailKind, (v: MailVars) => Rendered> = {
  approve: (v) => ({
    subject: `${v.title}: confirm your e-mail`,
    text: `Welcome to ${v.title}!\n\nYour confirmation code is ${v.code}. It works once and for ${v.minutes} minutes.\n\nOpen ${v.link} and enter the code to finish the registration.\n\nIf you did not sign up, ignore this e-mail.`,
  }),
  recovery: (v) => ({
    subject: `${v.title}: change your password`,
    text: `Somebody asked to change the password of your ${v.title} account.\n\nYour code is ${v.code}. It works once and for ${v.minutes} minutes.\n\nOpen ${v.link} and enter the code with your new password.\n\nIf it was not you, ignore this e-mail: your password stays as it is.`,
  }),
  'password-changed': (v) => ({
    subject: `${v.title}: your password was changed`,
    text: `The password of your ${v.title} account was changed. ${enSessions[v.sessions ?? 'all']}${enHold(v)}\n\nIf it was not you, recover your password at ${v.link} at once.`,
  }),
  'email-change': (v) => ({
    subject: `${v.title}: confirm your new e-mail`,
    text: `Somebody asked to use this address for a ${v.title} account.\n\nYour code is ${v.code}. It works once and for ${v.minutes} minutes. Enter it in the settings (${v.link}) to confirm the change.\n\nIf it was not you, ignore this e-mail.`,
  }),
  'email-changed': (v) => ({
    subject: `${v.title}: your sign-in e-mail was changed`,
    text: `The sign-in e-mail of your ${v.title} account is now ${v.email}; this address no longer signs in. ${enSessions.others}${v.wallet ? ` The wallet ${v.wallet} was unlinked: link it again with your password.` : ''}${enHold(v)}\n\nIf it was not you, contact support at once.`,
  }),
  'owner-code': (v) => ({
    subject: `${v.title}: code to confirm a change`,
    text: `Your code to change the e-mail, password or wallet of your ${v.title} account is ${v.code}. It works once and for ${v.minutes} minutes.\n\nIf it was not you, somebody may be using your account: change your password at ${v.link}.`,
  }),
  'wallet-changed': (v) => ({
    subject: `${v.title}: your wallet was changed`,
    text: `${v.wallet ? `The wallet ${v.wallet} is now linked to your ${v.title} account.` : `The wallet was unlinked from your ${v.title} account.`} ${enSessions.others}${enHold(v)}\n\nIf it was not you, change your password at ${v.link} at once.`,
  }),
  'withdrawal-returned': (v) => ({
    subject: `${v.title}: your withdrawal was returned`,
    text: `Your withdrawal of ${v.amount} ${v.currency} from the ${v.pool} pool was not paid: ${returnReasons.en[v.reason ?? 'PAYOUT_REVERTED']}.\n\nThe whole amount is back in your balance and earns interest again. You can request the withdrawal again at ${v.link}.`,
  }),
  'deposit-credited': (v) => ({
    subject: `${v.title}: your deposit is credited`,
    text: `Your deposit of ${v.amount} ${v.currency} to the ${v.pool} pool is credited and earns interest from today.\n\nSee your balance at ${v.link}.${enSwitch(v)}`,
  }),
  'withdrawal-paid': (v) => ({
    subject: `${v.title}: your withdrawal is paid`,
    text: `Your withdrawal of ${v.amount} ${v.currency} from the ${v.pool} pool is paid to your wallet.\n\nThe transaction: ${v.explorer}\n\nYour withdrawals: ${v.link}.${enSwitch(v)}`,
  }),
  'claim-paid': (v) => ({
    subject: `${v.title}: your referral rewards are paid`,
    text: `Your claim of ${v.amount} ${v.currency} in referral rewards is paid to your wallet.\n\nThe transaction: ${v.explorer}\n\nYour rewards: ${v.link}.${enSwitch(v)}`,
  }),
  'withdrawal-held': (v) => ({
    subject: `${v.title}: your withdrawal waits until ${utc(v.heldUntil ?? '')}`,
    text: `Your withdrawal of ${v.amount} ${v.currency} from the ${v.pool} pool is requested. The e-mail, password or wallet of your account changed recently, so it waits until ${utc(v.heldUntil ?? '')} before it is sent: money cannot leave before you can react.\n\nIf you did not change them, change your password at ${v.link} at once.${enSwitch(v)}`,
  }),
  'claim-returned': (v) => ({
    subject: `${v.title}: your referral reward claim was returned`,
    text: `Your claim of ${v.amount} ${v.currency} in referral rewards was not paid: ${returnReasons.en[v.reason ?? 'PAYOUT_REVERTED']}.\n\nThe whole amount is available to claim again at ${v.link}.`,
  }),
};

const ru: Record<MailKind, (v: MailVars) => Rendered> = {
  approve: (v) => ({
    subject: `${v.title}: подтвердите e-mail`,
    text: `Добро пожаловать в ${v.title}!\n\nВаш код подтверждения: ${v.code}. Он действует один раз и ${v.minutes} минут.\n\nОткройте ${v.link} и введите код, чтобы завершить регистрацию.\n\nЕсли вы не регистрировались, просто проигнорируйте это письмо.`,
  }),
  recovery: (v) => ({
    subject: `${v.title}: смена пароля`,
    text: `Кто-то запросил смену пароля вашего аккаунта ${v.title}.\n\nВаш код: ${v.code}. Он действует один раз и ${v.minutes} минут.\n\nОткройте ${v.link} и введите код и новый пароль.\n\nЕсли это были не вы, проигнорируйте письмо: пароль останется прежним.`,
  }),
  'password-changed': (v) => ({
    subject: `${v.title}: пароль изменён`,
    text: `Пароль вашего аккаунта ${v.title} изменён. ${ruSessions[v.sessions ?? 'all']}${ruHold(v)}\n\nЕсли это были не вы, срочно восстановите пароль: ${v.link}`,
  }),
  'email-change': (v) => ({
    subject: `${v.title}: подтвердите новый e-mail`,
    text: `Кто-то хочет использовать этот адрес для аккаунта ${v.title}.\n\nВаш код: ${v.code}. Он действует один раз и ${v.minutes} минут. Введите его в настройках (${v.link}), чтобы подтвердить смену.\n\nЕсли это были не вы, проигнорируйте письмо.`,
  }),
  'email-changed': (v) => ({
    subject: `${v.title}: e-mail для входа изменён`,
    text: `E-mail для входа в ваш аккаунт ${v.title} теперь ${v.email}; с этим адресом войти больше нельзя. ${ruSessions.others}${v.wallet ? ` Кошелёк ${v.wallet} отвязан: привяжите его снова с паролем.` : ''}${ruHold(v)}\n\nЕсли это были не вы, немедленно напишите в поддержку.`,
  }),
  'owner-code': (v) => ({
    subject: `${v.title}: код для подтверждения изменения`,
    text: `Ваш код для смены e-mail, пароля или кошелька аккаунта ${v.title}: ${v.code}. Он действует один раз и ${v.minutes} минут.\n\nЕсли это были не вы, кто-то может пользоваться вашим аккаунтом: смените пароль: ${v.link}.`,
  }),
  'wallet-changed': (v) => ({
    subject: `${v.title}: кошелёк изменён`,
    text: `${v.wallet ? `К вашему аккаунту ${v.title} теперь привязан кошелёк ${v.wallet}.` : `Кошелёк отвязан от вашего аккаунта ${v.title}.`} ${ruSessions.others}${ruHold(v)}\n\nЕсли это были не вы, срочно смените пароль: ${v.link}`,
  }),
  'withdrawal-returned': (v) => ({
    subject: `${v.title}: вывод средств возвращён`,
    text: `Ваш вывод ${v.amount} ${v.currency} из пула ${v.pool} не выплачен: ${returnReasons.ru[v.reason ?? 'PAYOUT_REVERTED']}.\n\nВся сумма вернулась на ваш баланс и снова приносит проценты. Запросить вывод ещё раз можно здесь: ${v.link}.`,
  }),
  'deposit-credited': (v) => ({
    subject: `${v.title}: депозит зачислен`,
    text: `Ваш депозит ${v.amount} ${v.currency} в пул ${v.pool} зачислен и приносит проценты с сегодняшнего дня.\n\nВаш баланс: ${v.link}.${ruSwitch(v)}`,
  }),
  'withdrawal-paid': (v) => ({
    subject: `${v.title}: вывод средств выплачен`,
    text: `Ваш вывод ${v.amount} ${v.currency} из пула ${v.pool} выплачен на ваш кошелёк.\n\nТранзакция: ${v.explorer}\n\nВаши выводы: ${v.link}.${ruSwitch(v)}`,
  }),
  'claim-paid': (v) => ({
    subject: `${v.title}: реферальные вознаграждения выплачены`,
    text: `Ваша выплата ${v.amount} ${v.currency} реферальных вознаграждений отправлена на ваш кошелёк.\n\nТранзакция: ${v.explorer}\n\nВаши вознаграждения: ${v.link}.${ruSwitch(v)}`,
  }),
  'withdrawal-held': (v) => ({
    subject: `${v.title}: вывод ждёт до ${utc(v.heldUntil ?? '')}`,
    text: `Ваш вывод ${v.amount} ${v.currency} из пула ${v.pool} запрошен. В аккаунте недавно сменили e-mail, пароль или кошелёк, поэтому он ждёт до ${utc(v.heldUntil ?? '')}, затем отправляется: деньги не уйдут раньше, чем вы успеете вмешаться.\n\nЕсли это были не вы, срочно смените пароль: ${v.link}.${ruSwitch(v)}`,
  }),
  'claim-returned': (v) => ({
    subject: `${v.title}: выплата реферальных вознаграждений возвращена`,
    text: `Ваша выплата ${v.amount} ${v.currency} реферальных вознаграждений не проведена: ${returnReasons.ru[v.reason ?? 'PAYOUT_REVERTED']}.\n\nВся сумма снова доступна для получения здесь: ${v.link}.`,
  }),
};

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/**
 * The HTML part: the text's paragraphs under a band of the brand's colour with its logo and title,
 * and the mail's link as a button in the brand's primary colour. Colours and the logo's address
 * are the brand's; inline styles, since mail clients drop style sheets.
 */
export function renderMail(kind: MailKind, lang: Lang, vars: MailVars): Rendered & { html: string } {
  const r = (lang === 'ru' ? ru : en)[kind](vars);
  const b = vars.brand;
  const body = r.text
    .split('\n\n')
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('');
  const header = b
    ? `<div style="background:${b.primary};color:${b.primaryText};padding:12px 16px;font-weight:700"><img src="${escapeHtml(b.baseUrl)}/brand/logo.svg" alt="" width="24" height="24" style="vertical-align:middle;margin-right:8px">${escapeHtml(vars.title)}</div>`
    : '';
  const button =
    b && vars.link
      ? `<p><a href="${escapeHtml(vars.link)}" style="display:inline-block;background:${b.primary};color:${b.primaryText};padding:10px 18px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(vars.title)}</a></p>`
      : '';
  const html = `<!doctype html><html lang="${lang}"><body style="font-family:sans-serif${b ? `;color:${b.text};background:${b.surface}` : ''}">${header}<div style="padding:0 16px">${body}${button}</div></body></html>`;
  return { ...r, html };
}
