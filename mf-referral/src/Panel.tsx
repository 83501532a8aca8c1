import type { ComponentProps } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { Panel as SharedPanel } from '@app/ui';

/** The shared panel with this remote's loading and error strings. */
export function Panel<T>(props: Omit<ComponentProps<typeof SharedPanel<T>>, 'texts'>) {
  const { t } = useTranslation();
  return <SharedPanel {...props} texts={{ loading: t('loading'), failed: (message) => t('loadFailed', { message }), retry: t('retry') }} />;
}
