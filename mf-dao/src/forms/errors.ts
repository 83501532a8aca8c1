import { useCallback } from 'react';
import { useTranslation } from '@app/singletons/react-i18n';
import { translateMessage } from '@app/contracts';

/** The contracts' messages are the spec's English; this shows one in the page's language. */
export function useMessage(): (text: string) => string {
  const { i18n } = useTranslation();
  const lang = (i18n.resolvedLanguage ?? i18n.language) === 'ru' ? 'ru' : 'en';
  return useCallback((text: string) => translateMessage(text, lang), [lang]);
}
