export {
  changePassword,
  confirmEmail,
  endOtherSessions,
  listSessions,
  mailWalletCode,
  normalPhone,
  replaceWallet,
  toProfile,
  unlinkWallet,
  updateProfile,
} from './account';
