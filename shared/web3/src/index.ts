// @app/web3: chains, the token table, exact amounts and display helpers. Free of ethers on purpose so
// importing it costs a first load almost nothing; wallet and chain calls live in '@app/web3/wallet'.

export * from './chains';
export * from './tokens';
export * from './amounts';
export * from './display';
export * from './erc20';
export * from './interest';
export * from './format';
export * from './rejection';
