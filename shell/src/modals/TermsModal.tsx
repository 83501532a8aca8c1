import { useEffect, useState } from 'react';
import type { LegalBlock } from '@app/contracts';
import { useTranslation } from '@app/singletons/react-i18n';
import { Modal } from './Modal';

const KINDS = new Set(['heading', 'paragraph', 'item']);
/** The blocks as the shell's server sends them; anything else is not drawn. */
function blocksOf(value: unknown): LegalBlock[] | null {
  if (!Array.isArray(value)) return null;
  const ok = value.every((b) => b && typeof b === 'object' && KINDS.has((b as LegalBlock).kind) && typeof (b as LegalBlock).text === 'string');
  return ok ? (value as LegalBlock[]) : null;
}

/**
 * Spec §2: 80% by 80% of the window, the host replaced with the brand title. The text is the
 * brand's own (terms.<lang>.md in its folder, sent by the shell's server with the host already
 * replaced); until it arrives, or if it cannot, the product's standard terms stand in.
 */
export function TermsModal({ brandTitle, onClose }: { brandTitle: string; onClose: () => void }) {
  const { t, i18n } = useTranslation('shell');
  const lang = i18n.language === 'ru' ? 'ru' : 'en';
  const [blocks, setBlocks] = useState<LegalBlock[] | null>(null);
  useEffect(() => {
    let live = true;
    fetch(`/brand/terms.${lang}.json`, { credentials: 'same-origin' })
      .then((r) => (r.ok ? r.json() : null))
      .then((value: unknown) => {
        if (live) setBlocks(blocksOf(value));
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [lang]);
  // The brand's own heading would repeat the modal's title.
  const shown = blocks?.filter((b, i) => !(i === 0 && b.kind === 'heading'));
  return (
    <Modal title={t('terms.title')} onClose={onClose} className="modal--terms">
      <div data-testid="terms-text">
        {shown
          ? shown.map((b, i) =>
              b.kind === 'heading' ? <h3 key={i}>{b.text}</h3> : b.kind === 'item' ? <p key={i} className="terms__item">• {b.text}</p> : <p key={i}>{b.text}</p>,
            )
          : (['body1', 'body2', 'body3', 'body4'] as const).map((key) => <p key={key}>{t(`terms.${key}`, { title: brandTitle })}</p>)}
      </div>
      <p>
        <a href={lang === 'ru' ? '/ru/privacy' : '/privacy'} target="_blank" rel="noreferrer">
          {t('terms.privacy')}
        </a>
      </p>
      <button type="button" className="btn btn--primary" onClick={onClose}>
        {t('terms.close')}
      </button>
    </Modal>
  );
}
