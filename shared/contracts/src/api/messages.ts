/**
 * Every message the API answers with, in one place, so the frontends can map them to translations
 * and the server can answer in Russian when asked. English is the spec's wording, kept exactly.
 * Placeholders look like {max}.
 */
export const apiMessages = {
  required: "It's required field!",
  invalidFields: 'Not all fields are filled in correctly',
  invalidEmail: 'Please check your email',
  maxLength: 'Max length is {max}!',
  invalidPhone: 'Please check your phone number!',
  invalidTelegram: 'Telegram must look like @myname',
  invalidPassword: 'Please check your password',
  passwordsDoNotMatch: 'Passwords do not match',
  invalidValue: 'Invalid value',
  invalidLogin: 'Invalid password or login',
  incorrectLogin: 'Incorrect login',
  loggedOut: 'You have successfully logged out!',
  loginRequired: 'Please login to access this page!',
  sessionExpired: 'Your session has expired. Please sign in again.',
  forbidden: 'You are not allowed to do this',
  accountNotConfirmed: 'Please confirm your e-mail first: enter the code we sent you',
  notFound: 'Not found',
  passwordChanged: 'Password changed successfully',
  recoverySent: 'Instructions for changing your password have been successfully sent to your email!',
  approveSent: 'Email for approve your account has been sent!',
  accountConfirmed: 'Your account is confirmed',
  invalidCode: 'The code is invalid or has expired',
  metamaskLinked: 'Metamask is successfully linked to the account!',
  metamaskInvalid: 'Metamask is not valid!',
  walletTaken: 'This wallet is already linked to another account',
  walletAlreadyLinked: 'Another wallet is already linked to this account',
  walletAfterConfirm: 'Link your wallet after confirming your e-mail',
  walletNotRegistered: 'No account uses this wallet yet. Sign up first or follow an invite link.',
  invalidInvite: 'The invite code is not valid',
  siweInvalid: 'The sign-in message is not valid',
  siweNonce: 'The sign-in request has expired or was already used. Please sign in again.',
  siweExpired: 'The sign-in message has expired. Please sign in again.',
  siweDomain: 'The sign-in message was made for another site',
  siweChain: 'Only network id 1 is supported',
  siweSignature: 'The signature does not match the wallet address',
  notReplenished: 'You have not replenished this pool yet',
  withdrawalSent: 'Withdrawal request has been successfully sent! Payment will be processed soon.',
  withdrawalFailed: 'Failed to send withdrawal request. Please try again.',
  claimInProgress: 'Please wait for the current payment to complete before making a new claim',
  nothingToClaim: 'There is nothing to claim yet',
  claimNoWallet: 'Link your wallet to your account before claiming rewards',
  depositRecorded: 'The deposit is recorded and waits for confirmation on the chain',
  depositDuplicate: 'This transaction is already recorded',
  amountTooLarge: 'The amount is more than you have in this pool',
  profileUpdated: 'Profile updated',
  tooManyRequests: 'Too many requests. Please try again later.',
  tooManyAttempts: 'Too many failed attempts. Please try again later.',
  payloadTooLarge: 'The request is too large',
  unsupportedMediaType: 'Send the request as JSON',
  internalError: 'Something went wrong. Please try again later.',
  depositNoWallet: 'Link your wallet to your account before making a deposit',
  depositWrongNetwork: 'The deposit must be made on network id 1',
  depositNotFound: 'The transaction was not found on the chain',
  depositNotMined: 'The transaction is not in a block yet. Please try again in a moment.',
  depositTxFailed: 'The transaction failed on the chain',
  depositNotYourWallet: 'The transaction was sent from a wallet other than the one linked to your account',
  depositWrongRecipient: "The transaction was not sent to this pool's {currency} address",
  depositTokenNotAllowed: 'This token is not accepted',
  depositWrongCurrency: 'The transaction does not transfer {currency}',
  depositPoolCurrency: 'This pool does not accept {currency}',
  depositAmountCorrected: 'The deposit is recorded with the amount the transaction carries and waits for confirmation on the chain',
  depositReorged: 'The transaction disappeared from the chain (reorganisation) and was not credited',
  depositFailedOnRecheck: 'The transaction failed when it was checked again and was not credited',
  depositUnverified: 'The deposit was recorded before on-chain checks and was not credited',
  chainUnavailable: 'The blockchain node cannot be reached right now. Please try again later.',
  withdrawalNoWallet: 'Link your wallet to your account before withdrawing',
  withdrawalFeeTooHigh: 'The amount must be larger than the withdrawal fee of {fee}',
  withdrawalBelowMinimum: 'The smallest withdrawal of {currency} is {minimum}',
  withdrawalsClosed: 'Withdrawals of {currency} are not available yet',
  withdrawalsPerHour: 'You can request at most {max} withdrawals an hour. Please try again later.',
  withdrawalsPerDay: 'You can request at most {max} withdrawals a day. Please try again later.',
  withdrawalAwaitingApproval: 'Withdrawal request received. Large withdrawals are paid after an operator approves them.',
  withdrawalReturnedReverted: 'The payout failed on the chain; the amount is back in your balance',
  withdrawalReturnedDropped: 'The payout was dropped by the network; the amount is back in your balance',
  withdrawalRejected: 'The withdrawal was declined by the operator; the amount is back in your balance',
  withdrawalReturnedRecipientReverts: 'Your wallet refused the payout twice (a smart-contract wallet that rejects it); the amount is back in your balance. Link a wallet that can receive it and withdraw again',
  withdrawalReturnedCancelled: 'The payout could not be sent and was cancelled; the amount is back in your balance',
  withdrawalWaitingFunds: 'Waiting for funds: the pool is topping up its paying address. The payout is sent as soon as it can be paid; nothing is lost meanwhile',
  avatarInvalid: 'Please choose a JPEG, PNG or WebP image',
  avatarTooLarge: 'The image is too large',
  avatarSaved: 'The avatar is saved',
  emailCodeSent: 'A code has been sent to your new e-mail. Enter it to confirm the change.',
  emailChanged: 'Your e-mail is changed',
  emailTaken: 'This e-mail is already used by another account',
  noEmailChange: 'There is no e-mail change waiting for a code',
  wrongPassword: 'The current password is not correct',
  ownerProofRequired: 'Enter your password or the code from the e-mail',
  walletCodeSent: 'A code has been sent to your e-mail',
  walletReplaced: 'The wallet is replaced',
  walletUnlinked: 'The wallet is unlinked',
  noWalletLinked: 'No wallet is linked to this account',
  sameWallet: 'This wallet is already linked to this account',
  otherSessionsEnded: 'Other sessions are signed out',
  ownerWalletRequired: 'Sign the message with the wallet linked to your account',
  ownerWalletMismatch: 'The message is not signed by the wallet linked to your account',
  ownerCodeAddressTooNew: 'Your e-mail was changed less than {hours} hours ago, so no code is sent to it yet. Use your password.',
  withdrawalsHeld: 'Withdrawals wait until {until}: the e-mail, password or wallet of your account was changed. This gives you time to act if it was not you.',
  proposalNotFound: 'The proposal was not found',
  proposalNotOpen: 'Voting on this proposal is closed',
  proposalNotStarted: 'Voting on this proposal has not started yet',
  invalidChoice: 'This choice is not one of the proposal\'s choices',
  voteSignatureInvalid: 'The vote is not signed by the wallet linked to your account',
  voteTimestamp: 'The vote was signed too long ago or in the future. Please sign it again.',
  noVotingPower: 'You had no voting power at the proposal\'s snapshot',
  voteRecorded: 'Your vote is recorded',
} as const;

export type ApiMessageKey = keyof typeof apiMessages;

/** Russian texts of the same keys. */
export const apiMessagesRu: Record<ApiMessageKey, string> = {
  required: 'Обязательное поле!',
  invalidFields: 'Не все поля заполнены правильно',
  invalidEmail: 'Пожалуйста, проверьте e-mail',
  maxLength: 'Максимальная длина {max}!',
  invalidPhone: 'Пожалуйста, проверьте номер телефона!',
  invalidTelegram: 'Telegram должен выглядеть как @myname',
  invalidPassword: 'Пожалуйста, проверьте пароль',
  passwordsDoNotMatch: 'Пароли не совпадают',
  invalidValue: 'Недопустимое значение',
  invalidLogin: 'Неверный пароль или логин',
  incorrectLogin: 'Некорректный логин',
  loggedOut: 'Вы успешно вышли!',
  loginRequired: 'Пожалуйста, войдите, чтобы открыть эту страницу!',
  sessionExpired: 'Сессия истекла. Пожалуйста, войдите снова.',
  forbidden: 'У вас нет прав на это действие',
  accountNotConfirmed: 'Сначала подтвердите e-mail: введите код, который мы вам отправили',
  notFound: 'Не найдено',
  passwordChanged: 'Пароль успешно изменён',
  recoverySent: 'Инструкции по смене пароля отправлены на ваш e-mail!',
  approveSent: 'Письмо для подтверждения аккаунта отправлено!',
  accountConfirmed: 'Ваш аккаунт подтверждён',
  invalidCode: 'Код неверен или истёк',
  metamaskLinked: 'Metamask успешно привязан к аккаунту!',
  metamaskInvalid: 'Metamask недействителен!',
  walletTaken: 'Этот кошелёк уже привязан к другому аккаунту',
  walletAlreadyLinked: 'К этому аккаунту уже привязан другой кошелёк',
  walletAfterConfirm: 'Привяжите кошелёк после подтверждения e-mail',
  walletNotRegistered: 'С этим кошельком ещё нет аккаунта. Зарегистрируйтесь или перейдите по приглашению.',
  invalidInvite: 'Код приглашения недействителен',
  siweInvalid: 'Сообщение для входа недействительно',
  siweNonce: 'Запрос на вход истёк или уже использован. Войдите снова.',
  siweExpired: 'Сообщение для входа истекло. Войдите снова.',
  siweDomain: 'Сообщение для входа создано для другого сайта',
  siweChain: 'Поддерживается только сеть с id 1',
  siweSignature: 'Подпись не соответствует адресу кошелька',
  notReplenished: 'Вы ещё не пополняли этот пул',
  withdrawalSent: 'Запрос на вывод отправлен! Выплата скоро будет обработана.',
  withdrawalFailed: 'Не удалось отправить запрос на вывод. Попробуйте ещё раз.',
  claimInProgress: 'Дождитесь завершения текущей выплаты, прежде чем запросить новую',
  nothingToClaim: 'Пока нечего получать',
  claimNoWallet: 'Привяжите кошелёк к аккаунту, чтобы получить вознаграждения',
  depositRecorded: 'Депозит записан и ждёт подтверждения в сети',
  depositDuplicate: 'Эта транзакция уже записана',
  amountTooLarge: 'Сумма больше, чем у вас в этом пуле',
  profileUpdated: 'Профиль обновлён',
  tooManyRequests: 'Слишком много запросов. Попробуйте позже.',
  tooManyAttempts: 'Слишком много неудачных попыток. Попробуйте позже.',
  payloadTooLarge: 'Слишком большой запрос',
  unsupportedMediaType: 'Отправьте запрос в формате JSON',
  internalError: 'Что-то пошло не так. Попробуйте позже.',
  depositNoWallet: 'Привяжите кошелёк к аккаунту, прежде чем делать депозит',
  depositWrongNetwork: 'Депозит нужно делать в сети с id 1',
  depositNotFound: 'Транзакция не найдена в сети',
  depositNotMined: 'Транзакция ещё не попала в блок. Попробуйте ещё раз через минуту.',
  depositTxFailed: 'Транзакция завершилась ошибкой в сети',
  depositNotYourWallet: 'Транзакция отправлена не с того кошелька, что привязан к вашему аккаунту',
  depositWrongRecipient: 'Транзакция отправлена не на адрес этого пула для {currency}',
  depositTokenNotAllowed: 'Этот токен не принимается',
  depositWrongCurrency: 'Транзакция не переводит {currency}',
  depositPoolCurrency: 'Этот пул не принимает {currency}',
  depositAmountCorrected: 'Депозит записан с суммой, которую несёт транзакция, и ждёт подтверждения в сети',
  depositReorged: 'Транзакция исчезла из сети (реорганизация) и не зачислена',
  depositFailedOnRecheck: 'Транзакция завершилась ошибкой при повторной проверке и не зачислена',
  depositUnverified: 'Депозит был записан до проверок в сети и не зачислен',
  chainUnavailable: 'Узел блокчейна сейчас недоступен. Попробуйте позже.',
  withdrawalNoWallet: 'Привяжите кошелёк к аккаунту, прежде чем выводить средства',
  withdrawalFeeTooHigh: 'Сумма должна быть больше комиссии за вывод {fee}',
  withdrawalBelowMinimum: 'Минимальная сумма вывода {currency}: {minimum}',
  withdrawalsClosed: 'Вывод {currency} пока недоступен',
  withdrawalsPerHour: 'Лимит запросов на вывод: {max} в час. Попробуйте позже.',
  withdrawalsPerDay: 'Лимит запросов на вывод: {max} в сутки. Попробуйте позже.',
  withdrawalAwaitingApproval: 'Запрос на вывод принят. Крупные выводы выплачиваются после одобрения оператором.',
  withdrawalReturnedReverted: 'Выплата не прошла в блокчейне; сумма возвращена на ваш баланс',
  withdrawalReturnedDropped: 'Сеть отбросила выплату; сумма возвращена на ваш баланс',
  withdrawalRejected: 'Оператор отклонил вывод; сумма возвращена на ваш баланс',
  withdrawalReturnedRecipientReverts: 'Ваш кошелёк дважды отказался принять выплату (смарт-контракт, который её отклоняет); сумма возвращена на ваш баланс. Привяжите кошелёк, который может её принять, и выведите снова',
  withdrawalReturnedCancelled: 'Выплату не удалось отправить, и она отменена; сумма возвращена на ваш баланс',
  withdrawalWaitingFunds: 'Ожидает средств: пул пополняет свой адрес выплат. Выплата будет отправлена, как только её можно будет провести; ничего не теряется',
  avatarInvalid: 'Выберите изображение JPEG, PNG или WebP',
  avatarTooLarge: 'Изображение слишком большое',
  avatarSaved: 'Аватар сохранён',
  emailCodeSent: 'Код отправлен на новый e-mail. Введите его, чтобы подтвердить смену.',
  emailChanged: 'Ваш e-mail изменён',
  emailTaken: 'Этот e-mail уже используется другим аккаунтом',
  noEmailChange: 'Нет смены e-mail, ожидающей кода',
  wrongPassword: 'Текущий пароль неверен',
  ownerProofRequired: 'Введите пароль или код из письма',
  walletCodeSent: 'Код отправлен на ваш e-mail',
  walletReplaced: 'Кошелёк заменён',
  walletUnlinked: 'Кошелёк отвязан',
  noWalletLinked: 'К этому аккаунту не привязан кошелёк',
  sameWallet: 'Этот кошелёк уже привязан к этому аккаунту',
  otherSessionsEnded: 'Другие сеансы завершены',
  ownerWalletRequired: 'Подпишите сообщение кошельком, привязанным к аккаунту',
  ownerWalletMismatch: 'Сообщение подписано не тем кошельком, что привязан к аккаунту',
  ownerCodeAddressTooNew: 'Ваш e-mail сменили менее {hours} ч назад, поэтому код на него пока не отправляется. Используйте пароль.',
  withdrawalsHeld: 'Выводы средств ждут до {until}: в аккаунте сменили e-mail, пароль или кошелёк. Это время, чтобы вмешаться, если это были не вы.',
  proposalNotFound: 'Предложение не найдено',
  proposalNotOpen: 'Голосование по этому предложению закрыто',
  proposalNotStarted: 'Голосование по этому предложению ещё не началось',
  invalidChoice: 'Такого варианта нет в этом предложении',
  voteSignatureInvalid: 'Голос подписан не тем кошельком, что привязан к вашему аккаунту',
  voteTimestamp: 'Голос подписан слишком давно или в будущем. Подпишите его снова.',
  noVotingPower: 'На момент снимка предложения у вас не было голосов',
  voteRecorded: 'Ваш голос учтён',
};

/** Fills {name} placeholders. */
export function formatMessage(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const templates = (Object.keys(apiMessages) as ApiMessageKey[]).map((key) => {
  const names: string[] = [];
  const source = apiMessages[key]
    .split(/(\{\w+\})/)
    .map((part) => {
      const m = /^\{(\w+)\}$/.exec(part);
      if (!m) return escapeRe(part);
      names.push(m[1] as string);
      return '(.+?)';
    })
    .join('');
  return { key, names, re: new RegExp(`^${source}$`) };
});

/**
 * Finds which catalogue entry an English message came from (with its placeholder values), so a
 * message can be translated after it was formatted, e.g. by a schema.
 */
export function messageKeyOf(text: string): { key: ApiMessageKey; params: Record<string, string> } | undefined {
  for (const t of templates) {
    const m = t.re.exec(text);
    if (m) return { key: t.key, params: Object.fromEntries(t.names.map((n, i) => [n, m[i + 1] as string])) };
  }
  return undefined;
}

/** Translates an English catalogue message to Russian; other texts pass through unchanged. */
export function translateMessage(text: string, lang: 'en' | 'ru'): string {
  if (lang === 'en') return text;
  const found = messageKeyOf(text);
  return found ? formatMessage(apiMessagesRu[found.key], found.params) : text;
}
