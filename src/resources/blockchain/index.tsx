/**
 * The blockchain section's screens (named exports; no default export, so App.tsx's folder glob does not
 * take this file for a resource config). The shell mounts them on its `/baas/*` routes
 * (src/shell/routes.ts, src/layout/screens.tsx):
 * - `/baas/fabric` → BlockchainDashboard; `/baas/channel` → ChannelList; `/baas/channel/:id` → ChannelShow;
 * - `/baas/chainCode` → ChaincodeList; `/baas/chainCode/:id` → ChaincodeShow;
 * - `/baas/block/:channelId/:number` → BlockShow; `/baas/transaction/:txId` → TransactionShow;
 * - `/baas/search?q=` → ChainSearch.
 * `OnChainPanel` goes on the author and artwork show pages: `<OnChainPanel kind="author" />`.
 * Each export is a lazy wrapper (src/shell/lazy.tsx): the screens' code is not in the entry chunk.
 * Messages: `./i18n.ts` (`blockchain.*`, en + zh).
 */
import { lazyComponent } from '../../shell/lazy';

// Every screen is split off the entry chunk: the section's code loads with the first of its screens shown.
export const BlockchainDashboard = lazyComponent(() =>
  import('./Dashboard').then((m) => m.BlockchainDashboard),
);
export const ChannelList = lazyComponent(() => import('./Channels').then((m) => m.ChannelList));
export const ChannelShow = lazyComponent(() => import('./Channels').then((m) => m.ChannelShow));
export const BlockShow = lazyComponent(() => import('./Blocks').then((m) => m.BlockShow));
export const TransactionShow = lazyComponent(() => import('./Blocks').then((m) => m.TransactionShow));
export const ChainSearch = lazyComponent(() => import('./Search').then((m) => m.ChainSearch));
export const ChaincodeList = lazyComponent(() => import('./Chaincode').then((m) => m.ChaincodeList));
export const ChaincodeShow = lazyComponent(() => import('./Chaincode').then((m) => m.ChaincodeShow));
export const OnChainPanel = lazyComponent(() => import('./OnChainPanel').then((m) => m.OnChainPanel));
