import { useTranslation } from '@app/singletons/react-i18n';
import { apiFailure } from '@app/contracts';
import { useNotify, useRemote } from '@app/ui';
import { useMessage } from '../forms/errors';

/**
 * Mails a code to the account's current, proven e-mail: the alternative to the password for a
 * change of the e-mail, password or wallet. The server refuses it for an address changed
 * recently, and says so.
 */
export function OwnerCodeButton() {
  const { t } = useTranslation();
  const { api } = useRemote();
  const notify = useNotify();
  const message = useMessage();
  const mail = async () => {
    try {
      const answer = await api.call('settingsOwnerCode');
      notify({ kind: 'success', message: message(answer.message) });
    } catch (error) {
      notify({ kind: 'error', title: t('form.errorTitle'), message: message(apiFailure(error)?.message ?? t('form.failed')) });
    }
  };
  return (
    <div className="settings__or">
      <button type="button" className="btn btn--link" onClick={mail}>
        {t('settings.wallet.mailCode')}
      </button>
    </div>
  );
}
