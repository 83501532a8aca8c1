import { useCallback, useState } from 'react';
import { apiFailure } from '@app/contracts';
import { useTranslation } from '@app/singletons/react-i18n';
import { useNotify } from '@app/ui';
import { useMessage } from './errors';

/**
 * A save with nothing to check field by field (switches, choices from a list): busy while it
 * runs, then the success notice it returns, or the server's message in the page's language.
 */
export function useSaveAction() {
  const { t } = useTranslation();
  const notify = useNotify();
  const message = useMessage();
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    async (save: () => Promise<string>) => {
      setBusy(true);
      try {
        notify({ kind: 'success', title: t('form.successTitle'), message: await save() });
      } catch (error) {
        notify({ kind: 'error', title: t('form.errorTitle'), message: message(apiFailure(error)?.message ?? t('form.failed')) });
      } finally {
        setBusy(false);
      }
    },
    [message, notify, t],
  );
  return { busy, run };
}

/** The form's save button, saying so while the save runs. */
export function SaveButton({ busy, label }: { busy: boolean; label?: string }) {
  const { t } = useTranslation();
  return (
    <div className="form__actions">
      <button type="submit" className="btn btn--primary" disabled={busy}>
        {busy ? t('form.saving') : (label ?? t('form.save'))}
      </button>
    </div>
  );
}
