import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useRemote } from '@app/ui';

/** Notifications through the shell (top-center, spec §2), titled in the page's language. */
export function useNotify() {
  const { bus } = useRemote();
  const { t } = useTranslation();
  const error = useCallback(
    (message: string) => bus.send({ type: 'notify', notification: { kind: 'error', title: t('form.errorTitle'), message } }),
    [bus, t],
  );
  const success = useCallback(
    (message: string) => bus.send({ type: 'notify', notification: { kind: 'success', title: t('form.successTitle'), message } }),
    [bus, t],
  );
  return { error, success };
}
