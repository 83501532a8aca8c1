import { useCallback } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { useNotify as useShellNotify } from '@app/ui';

/** Form outcomes as notices, titled in the page's language. */
export function useNotify() {
  const send = useShellNotify();
  const { t } = useTranslation();
  const error = useCallback((message: string) => send({ kind: 'error', title: t('form.errorTitle'), message }), [send, t]);
  const success = useCallback((message: string) => send({ kind: 'success', title: t('form.successTitle'), message }), [send, t]);
  return { error, success };
}
