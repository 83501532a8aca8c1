/**
 * Every message the API answers with, in one place, so the frontends can map them to translations
 * and the server can answer in Russian when asked. English is the spec's wording, kept exactly.
 * Placeholders look like {max}.
 */
import * as texts from './message-texts';
import { formatMessage } from './message-format';

export { formatMessage };

export const apiMessages = { ...texts } as const;

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
  solvencyUnknownSnapshot: 'Снимка платёжеспособности с таким номером нет',
  solvencyNoSnapshot: 'Снимков платёжеспособности ещё не было',
  solvencyNotIncluded: 'Когда делался этот снимок, на вашем счёте ничего не было, поэтому его в снимке нет',
  solvencyChainUnreachable: 'Блокчейн сейчас недоступен, поэтому снимок не сделан. Ничего не сохранено; попробуйте позже.',
  solvencyNoKey: 'Ключ подписи снимков (SOLVENCY_KEY) не настроен, поэтому снимок не делается',
  solvencyAttestAddress: 'Ожидается адрес Ethereum: 0x и 40 шестнадцатеричных цифр',
  solvencyAttestSignatureFormat: 'Ожидается подпись из 65 байт в шестнадцатеричном виде: 0x и 130 цифр',
  solvencyAttestNotDeclared: 'Этот адрес не заявлен в этом снимке, поэтому ему нечего доказывать',
  solvencyAttestProven: 'Этот адрес уже доказал владение в этом снимке; ничего не изменено',
  solvencyAttestWrongSigner: 'Подпись сделана не этим адресом или не над сообщением этого снимка. Подпишите ключом этого адреса ровно то сообщение, что показано для этого снимка. Ничего не изменено.',
  solvencyAttestChainUnreachable: 'Блокчейн сейчас не читается на блоке снимка, поэтому доказательство не записано. Ничего не изменено; попробуйте позже.',
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
  operatorSignInFailed: 'Неверное имя оператора, пароль или код',
  operatorCodeRequired: 'Введите код из приложения-аутентификатора, чтобы подтвердить действие',
  operatorCodeWrong: 'Код аутентификатора неверен или устарел',
  operatorSessionEnded: 'Сессия оператора завершена. Пожалуйста, войдите снова.',
  approvalOwnWithdrawal: 'Нельзя одобрить свой вывод или вывод, который вы запросили за другого',
  approvalAlreadyGiven: 'Вы уже одобрили этот вывод: его должен одобрить другой оператор',
  settingChangeOwn: 'Изменение денежных настроек одобряет второй оператор, а не тот, кто его предложил',
  settingChangeApplied: 'Это изменение уже применено',
  settingChangeRejected: 'Это изменение отклонено: одобрить его уже нельзя',
  settingChangeStale: 'Настройка изменилась после того, как это изменение предложили: отклоните его и предложите снова',
  settingChangeNothing: 'Это изменение оставляет настройку как есть',
  settingChangeNotFuture: 'Новая доходность начинает действовать с будущего дня: не раньше завтрашнего',
  settingFourEyesOnly: 'Эта настройка влияет на деньги: предложите изменение, и пусть его одобрит другой оператор',
  referralVersionNotFuture: 'Новая версия реферальной программы начинает действовать с дня, за который вознаграждения ещё не начислены: не раньше завтрашнего',
  settingChangeTooLate: 'День, с которого должно было действовать это изменение, уже начался или за него начислены вознаграждения: отклоните его и предложите с более позднего дня',
  referralLevelsCount: 'В реферальной программе от 1 до {max} уровней',
  referralLevelRate: 'Уровень {level}: ставка — целое число базисных пунктов, от 0 до {max}',
  referralRanksCount: 'В реферальной программе от 1 до {max} рангов',
  referralRankTitle: 'Ранг {rank}: название длиной от 1 до {max} символов',
  referralRankCapital: 'Ранг {rank}: капитал указывается в долларах США, например 10000 или 2500.50',
  referralRankBonus: 'Ранг {rank}: бонус — целое число базисных пунктов, от 0 до {max}',
  referralRankOrder: 'Ранг {rank}: каждому рангу нужен больший капитал, чем предыдущему',
  referralTotalOverCap: 'Ставки уровней и наибольший бонус ранга на каждом уровне в сумме дают {total} б. п., больше {max} б. п.',
  referralVestingDays: 'Срок вестинга — целое число дней, от 0 до {max}',
  referralUnknownCurrency: 'Неизвестная валюта: {currency}',
  referralConfigInThePast: 'Вознаграждения начислены по {day}: изменение может начаться не раньше следующего дня',
};

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
