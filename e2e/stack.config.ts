// Where the browser tests run the site: ports apart from `npm start`'s, so both can run at once.
// E2E_PORT_OFFSET moves them all, so two runs on one machine do not collide.
const offset = Number(process.env.E2E_PORT_OFFSET ?? 0);
export const ports = {
  shell: 18080 + offset,
  'mf-auth': 13001 + offset,
  'mf-cabinet': 13002 + offset,
  'mf-pools': 13003 + offset,
  'mf-referral': 13004 + offset,
  'mf-dao': 13005 + offset,
  'mf-operator': 13006 + offset,
  api: 14000 + offset,
  operatorApi: 14100 + offset,
  // Off the hundreds: offsets step by hundreds, so 14200 + one would be 14100 + another.
  signer: 14050 + offset,
  ledgerReader: 14060 + offset,
  chain: 18545 + offset,
  mailSmtp: 11025 + offset,
  mailInbox: 11080 + offset,
};

/** The mail catcher's inbox: the tests read mailed codes there, as a person would. */
export const mailInboxURL = `http://127.0.0.1:${ports.mailInbox}`;

/** A second build of mf-cabinet with a visible label, for the remote-swap test. */
export const canaryCabinetPort = 13202 + offset;
/** mf-dao as served for the host down.test, by a server the remote-failure test starts and stops. */
export const controlledDaoPort = 13205 + offset;
/** mf-cabinet as served for the host redeploy.test, by a server the redeploy test replaces. */
export const redeployCabinetPort = 13302 + offset;
/** The contract version faults.test declares for mf_referral: a major the shell does not speak. */
export const mismatchedContract = '2.0';

export const baseURL = `http://localhost:${ports.shell}`;
/** The operator API's own port (the command line's way in; the console goes through the shell). */
export const operatorApiURL = `http://127.0.0.1:${ports.operatorApi}`;
/** Brand hosts resolve to this machine in the test browser (--host-resolver-rules). */
export const brandURL = (host: string) => `http://${host}:${ports.shell}`;

/** The title of the default brand, shown on any host no brand claims. */
export const defaultTitle = 'Invest Pools';

/**
 * The tests' own brands, written as copies of the default brand (global-setup.ts) beside the
 * shipped ones (brands/: default on localhost, aurora and ember on aurora.test and ember.test).
 */
export const testBrands = [
  { id: 'acme', host: 'acme.test', title: 'Acme Invest', manifest: 'remotes.json' },
  { id: 'swap', host: 'swap.test', title: 'Swap Brand', manifest: 'swap.json' },
  { id: 'down', host: 'down.test', title: 'Down Brand', manifest: 'down.json' },
  { id: 'redeploy', host: 'redeploy.test', title: 'Redeploy Brand', manifest: 'redeploy.json' },
  { id: 'broken', host: 'broken.test', title: 'Broken Brand', manifest: 'broken.json' },
  // A brand whose manifest carries faults: mf_referral declared for contract 2.0, mf_pools at a
  // manifest URL that answers 404. Every other remote is the normal build.
  { id: 'faults', host: 'faults.test', title: 'Faults Brand', manifest: 'faults.json' },
];
