import { useTranslation } from '@app/singletons/react-i18n';
import { Modal } from './Modal';

/** Spec §2: 80% by 80% of the window, the host replaced with the brand title. */
export function TermsModal({ brandTitle, onClose }: { brandTitle: string; onClose: () => void }) {
  const { t } = useTranslation('shell');
  return (
    <Modal title={t('terms.title')} onClose={onClose} className="modal--terms">
      {(['body1', 'body2', 'body3', 'body4'] as const).map((key) => (
        <p key={key}>{t(`terms.${key}`, { title: brandTitle })}</p>
      ))}
      <button type="button" className="btn btn--primary" onClick={onClose}>
        {t('terms.close')}
      </button>
    </Modal>
  );
}
