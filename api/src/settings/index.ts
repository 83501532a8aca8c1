export {
  changePassword,
  confirmEmail,
  endOtherSessions,
  heldUntil,
  holdSet,
  holdsFunds,
  linkFirstWallet,
  listSessions,
  mailOwnerCode,
  normalPhone,
  replaceWallet,
  toProfile,
  unlinkWallet,
  updateProfile,
  type OwnerProof,
} from './account';
export { mailPreferencesOf, setMailPreferences } from './mail';
