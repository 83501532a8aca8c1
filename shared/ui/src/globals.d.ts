/** Set by the build (shared/build): a label shown on pages of a labelled build, e.g. a canary. */
declare const __BUILD_LABEL__: string;
declare const __REMOTE_NAME__: string;
