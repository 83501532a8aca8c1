import type { BackendModule, i18n as I18n } from 'i18next';
import type { RemoteTranslations, TranslationLoaders } from '@app/contracts';

/**
 * Where every namespace's strings come from: one JSON file per language, fetched when i18next
 * first needs that language. A visitor downloads only the language of the page (and English,
 * the fallback); switching language fetches the new one before the page changes over.
 */
export function createTranslations() {
  const loaders = new Map<string, TranslationLoaders>();

  const backend: BackendModule = {
    type: 'backend',
    init: () => undefined,
    read(language, namespace, callback) {
      const load = loaders.get(namespace)?.[language as keyof TranslationLoaders];
      if (!load) return callback(null, {});
      load().then(
        (strings) => callback(null, strings as never),
        // i18next retries a failed read a few times, then shows the keys' fallbacks.
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
      );
    },
  };

  return {
    backend,
    add(namespace: string, bundles: TranslationLoaders) {
      loaders.set(namespace, bundles);
    },
    /** What a remote gets in its props. */
    forRemotes(i18n: I18n): RemoteTranslations {
      return {
        register: async (namespace, bundles) => {
          loaders.set(namespace, bundles);
          // Also adds the namespace to those i18next loads on every language change.
          await i18n.loadNamespaces(namespace);
        },
      };
    },
  };
}
