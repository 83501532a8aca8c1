import { atom } from 'jotai';

/** The shell's own UI state; remotes never see these atoms. */
export const termsOpenAtom = atom(false);
export const walletPromptOpenAtom = atom(false);
