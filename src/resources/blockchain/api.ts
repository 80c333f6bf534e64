/**
 * The blockchain screens' calls that are no react-admin verb (docs/api.md, docs/ledger.md): dashboard
 * figures, search, proof and verification under `/baas-api/*`, chaincode upload and lifecycle steps,
 * put on chain; over the console's envelope transport (X-Token, `{code,msg,data}`; failures reject with
 * `msg`). Channels, blocks, transactions and chaincodes are read through the dataProvider (resources).
 */
import { httpClient } from '../../dataProvider/httpClient';
import { toQuery } from '../../dataProvider';
import type {
  BlockInfo,
  ChannelInfo,
  CommittedTx,
  Page,
  PutOnChainResult,
  SearchHit,
  TxBucket,
  TxProof,
  VerifyResult,
} from '../../../common/ledger/types';

export type { BlockInfo, ChannelInfo, CommittedTx, Page, SearchHit, TxBucket, TxProof, VerifyResult };

/** A block as the `blocks` resource answers it: its id is `channelId:number` (x-endpoints idFrom). */
export type BlockRecord = BlockInfo & { id: string };

export interface DashboardData {
  channels: number;
  blocks: number;
  transactions: number;
  pending: number;
  chaincodes: number;
  perMinute: TxBucket[];
  perHour: TxBucket[];
}

export interface ChaincodeRow {
  id: number;
  channelId: number;
  channel: string;
  name: string;
  version: string;
  policy: string;
  function: string;
  functionType: string;
  fileName: string;
  codeHash: string;
  status: 'installed' | 'approved' | 'committed';
  createdBy: string;
  createTime: string;
  updateTime: string;
}

export interface ChaincodeDetail extends ChaincodeRow {
  initArgs: string[];
  args: string[];
  code: string;
  history: { status: string; txId: string; time: string }[];
}

/** The put-on-chain answer with the record as stored after it. */
export interface PutOnChainAnswer extends PutOnChainResult {
  record: Record<string, unknown>;
}

/** GET `/baas-api<path>` with query parameters; resolves `data`. */
export async function baasGet<T>(path: string, params: Record<string, unknown> = {}): Promise<T> {
  const { json } = await httpClient<T>(`/baas-api${path}${toQuery(params)}`);
  return json.data;
}

/** POST a JSON body (or FormData) to an absolute API path; resolves `data`. */
export async function apiPost<T>(path: string, body: unknown): Promise<T> {
  const { json } = await httpClient<T>(path, {
    method: 'POST',
    body: body instanceof FormData ? body : JSON.stringify(body),
  });
  return json.data;
}

/** Puts an author or an artwork on chain (admin). */
export function putOnChain(kind: 'author' | 'artwork', id: number): Promise<PutOnChainAnswer> {
  return apiPost<PutOnChainAnswer>(
    kind === 'author' ? '/artmanager/authors/blockChain' : '/artmanager/artwork/blockChain',
    { id },
  );
}

/**
 * Downloads a record's offline proof (C2SP tlog-proof, docs/witnesses.md section 11.6) from
 * `GET /baas-api/proof-file` as `<kind>-<id>.tlog-proof`.
 */
export async function downloadProofFile(kind: 'author' | 'artwork', id: number): Promise<void> {
  const d = await baasGet<{ name: string; file: string }>('/proof-file', { kind, id });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([d.file], { type: 'text/plain' }));
  a.download = d.name;
  a.click();
  URL.revokeObjectURL(a.href);
}
