/**
 * The blockchain section's screens (named exports; no default export, so App.tsx's folder glob does not
 * take this file for a resource config). The shell mounts them on its `/baas/*` routes
 * (src/shell/routes.ts, src/layout/screens.tsx):
 * - `/baas/fabric` → BlockchainDashboard; `/baas/channel` → ChannelList; `/baas/channel/:id` → ChannelShow;
 * - `/baas/chainCode` → ChaincodeList; `/baas/chainCode/:id` → ChaincodeShow;
 * - `/baas/block/:channelId/:number` → BlockShow; `/baas/transaction/:txId` → TransactionShow;
 * - `/baas/search?q=` → ChainSearch.
 * `OnChainPanel` goes on the author and artwork show pages: `<OnChainPanel kind="author" />`.
 * Messages: `./i18n.ts` (`blockchain.*`, en + zh).
 */
export { BlockchainDashboard } from './Dashboard';
export { ChannelList, ChannelShow } from './Channels';
export { BlockShow, TransactionShow } from './Blocks';
export { ChainSearch } from './Search';
export { ChaincodeList, ChaincodeShow } from './Chaincode';
export { OnChainPanel } from './OnChainPanel';
