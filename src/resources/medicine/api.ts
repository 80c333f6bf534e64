/**
 * The Medicine section's hand-written calls, as the console makes them (server/routes/medicine-api/):
 * the signed-in account's inbox (`/medicine-api/message/*`) and a company's tracking
 * (`/medicine-api/company/tracking`). React Query keys start with `medicine` so a read refreshes the
 * inbox, the unread count and the navbar badge together.
 */
import { httpClient } from '../../dataProvider/httpClient';

/** A notification as the notifications and message calls answer it (schemas/notification.schema.json). */
export interface Message {
  id: number;
  companyId: number;
  companyName: string | null;
  title: string;
  content: string;
  status: 'draft' | 'sent' | 'read';
  recipients: string[];
  sendTime: string | null;
  readBy: string | null;
  readTime: string | null;
}

/** One audit entry (schemas/auditEntry.schema.json). */
export interface AuditEntry {
  id: number;
  time: string;
  account: string;
  call: string;
  resource: string;
  recordId: string;
  /** Names of the columns an update changed ([] for a create or delete). */
  changed: string[];
  before: string | null;
  after: string | null;
}

/** A page of records. */
export interface Page<T> {
  list: T[];
  total: number;
}

/** Query-key root of everything below. */
export const MEDICINE_KEY = 'medicine';

async function get<T>(url: string): Promise<T> {
  return (await httpClient<T>(url)).json.data;
}

/** `GET /medicine-api/message/getList`: one page of the inbox (`status`: unread `sent` or `read`). */
export const inbox = (page: number, pageSize: number, status?: 'sent' | 'read') =>
  get<Page<Message>>(
    `/medicine-api/message/getList?page=${page}&pageSize=${pageSize}${status ? `&status=${status}` : ''}`,
  );

/** `GET /medicine-api/message/unreadCount`. */
export const unreadCount = async () =>
  (await get<{ count: number }>('/medicine-api/message/unreadCount')).count;

/** `GET /medicine-api/message/company`: the caller's companies. */
export const myCompanies = async () =>
  (
    await get<{ list: { id: number; companyName: string; creditCode: string }[] }>(
      '/medicine-api/message/company',
    )
  ).list;

/** `POST /medicine-api/message/read`. */
export const markRead = async (id: number) =>
  (
    await httpClient<Message>('/medicine-api/message/read', {
      method: 'POST',
      body: JSON.stringify({ id }),
    })
  ).json.data;

/** `GET /medicine-api/company/tracking`: one page of a company's history. */
export const tracking = (id: number, page: number, pageSize: number) =>
  get<Page<AuditEntry>>(`/medicine-api/company/tracking?id=${id}&page=${page}&pageSize=${pageSize}`);
