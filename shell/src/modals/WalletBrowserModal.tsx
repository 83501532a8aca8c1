import { useTranslation } from '@app/singletons/react-i18n';
import { Modal } from './Modal';

export function WalletBrowserModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('shell');
  return (
    <Modal title={t('walletBrowser.title')} onClose={onClose}>
      <p>{t('walletBrowser.message')}</p>
      <button type="button" className="btn btn--primary" onClick={onClose}>
        {t('walletBrowser.close')}
      </button>
    </Modal>
  );
}
