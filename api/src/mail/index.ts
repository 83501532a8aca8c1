export { mailContext } from './context';
export { mailBrand, type MailBrand } from './brand';
export { REDACTED, createMailer, type Mailer, type MailerOptions } from './mailer';
export { renderMail, type MailKind, type MailVars, type MoneyMailKind, type ReturnReason, type SessionsEnded } from './templates';
export { MONEY_MAIL_PREFERENCE, mailMoney, type MoneyEvent, type MoneyNotice } from './money';
