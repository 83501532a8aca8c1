import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { Notification } from '@app/contracts';
import { useRemote } from '@app/ui';

/** Notifications through the shell (top-center, spec §2), titled in the page's language. */
export function useNotify() {
  const { bus } = useRemote();
  const { t } = useTranslation();
  const send = useCallback(
    (notification: Notification) => {
      // A notice that cannot be shown must not undo what the form did (e.g. stop a navigation).
      try {
        bus.send({ type: 'notify', notification });
      } catch (error) {
        console.error('notification refused', error);
      }
    },
    [bus],
  );
  const error = useCallback((message: string) => send({ kind: 'error', title: t('form.errorTitle'), message }), [send, t]);
  const success = useCallback((message: string) => send({ kind: 'success', title: t('form.successTitle'), message }), [send, t]);
  return { error, success };
}
