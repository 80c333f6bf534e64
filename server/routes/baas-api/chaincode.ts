/**
 * `/baas-api/chaincode*` (docs/ledger.md section 8):
 * - `GET /baas-api/chaincode?id=` (user, admin): one chaincode with its code and lifecycle history.
 * - `POST /baas-api/chaincode/upload` (user, admin): multipart, one file field `file` (Go source only: `.go`,
 *   UTF-8 with a package clause, at most 512 KiB) and text fields `name`, `version`, `channel`
 *   (default artchannel), `initArgs`, `args` (JSON array of strings or comma-separated), `policy`,
 *   `function`, `functionType` (invoke|query). Records an `InstallChaincode` transaction → status installed.
 * - `POST /baas-api/chaincode/approve` and `/commit` (admin only), body `{id}`: installed → approved →
 *   committed, each an `_lifecycle` transaction; any other order is refused (409).
 * Who may do what (docs/api.md "Chaincode and the user role"): `user`, the blockchain service's operator
 * the product gives `/baas` to, installs chaincode (as a peer admin installs a package on its peers in
 * Fabric's lifecycle); approving a definition for the organisation and committing it to the channel, the
 * two steps that decide what code every record's transactions run, stay with `admin`. So the account
 * that uploads code cannot on its own put it in force.
 * Audit (issue 32, "One door"): the upload's row is audited with its insert, as the signed-in account;
 * each lifecycle step's change by the ledger's commit hook, as the transaction's creator (the same
 * account), with this call (server/ledger/chaincode.ts).
 */
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { Codes } from '../../../common/envelope';
import { formatErrors } from '../../../kernel/dialect/schemaRegistry';
import { validatorFor } from '../../../kernel/dialect/validators';
import { ok } from '../../plugins/app/envelope';
import { ApiError, apiError, conflict } from '../../errors';
import { msg } from '../../../common/messages/index';
import multipart from '../../plugins/external/multipart';
import { multipartError } from '../../storage/multipartError';
import { actorOf, storedRow } from '../../db/audit';
import {
  auditChaincode,
  checkGoSource,
  LIFECYCLE_CHAINCODE,
  LIFECYCLE_FUNCTION,
  MAX_CHAINCODE_BYTES,
  parseArgList,
  PREVIOUS_STATUS,
} from '../../ledger/chaincode';
import { withRecordLock } from '../../ledger/records';
import { idBody } from '../../ledger/routeHelpers';
import type { LedgerTables } from '../../ledger/tables';
import { blockTimeText, sha256Hex } from '../../ledger/tx';

const TEXT_FIELDS = [
  'name',
  'version',
  'channel',
  'initArgs',
  'args',
  'policy',
  'function',
  'functionType',
] as const;

function bad(message: string, field = 'file', keyword = 'chaincode') {
  return new ApiError(Codes.INVALID, 400, msg('request.fields'), {
    errors: [{ field, keyword, params: {}, message }],
  });
}

export default async function chaincodeRoutes(fastify: FastifyInstance) {
  // multipart/form-data parsing (and @fastify/multipart's per-request hooks) only in this context (issue 10).
  await fastify.register(multipart);
  const app = fastify.withTypeProvider<JsonSchemaToTsProvider>();
  const db = app.db as unknown as Kysely<LedgerTables>;
  // `user` (and admin) read and install; approve and commit are admin's (see the module doc).
  const readers = app.requireRoles(['user']);
  const admin = app.requireRoles(['admin']);

  async function load(id: number) {
    const row = await db.selectFrom('chaincode').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw apiError(Codes.NOT_FOUND, 404, 'ledger.chaincodeNotFound', { id });
    const channel = await app.ledger.channel(row.channelId);
    return {
      ...row,
      channel: channel?.name ?? String(row.channelId),
      initArgs: JSON.parse(row.initArgs) as string[],
      args: JSON.parse(row.args) as string[],
      history: JSON.parse(row.history) as { status: string; txId: string; time: string }[],
    };
  }

  app.get(
    '',
    {
      onRequest: readers,
      schema: {
        querystring: idBody,
      },
    },
    async (req) => ok(await load(req.query.id)),
  );

  app.post('/upload', { onRequest: readers }, async (req) => {
    if (!req.isMultipart()) throw bad('Send the chaincode as multipart/form-data with a file field "file"');
    const fields: Record<string, string> = {};
    let file: { name: string; bytes: Buffer } | undefined;
    // The file part being read, named by the error when the body stops inside it.
    let reading = '';
    try {
      for await (const part of req.parts({
        limits: { files: 1, fileSize: MAX_CHAINCODE_BYTES, fields: 20, fieldSize: 16 * 1024 },
      })) {
        if (part.type === 'file') {
          if (part.fieldname !== 'file')
            throw bad(`Unexpected file field "${part.fieldname}": send the source as "file"`);
          reading = part.fieldname;
          const bytes = await part.toBuffer();
          reading = '';
          file = { name: part.filename, bytes };
        } else {
          if (!(TEXT_FIELDS as readonly string[]).includes(part.fieldname))
            throw bad(`${part.fieldname}: is not a known field`, part.fieldname, 'additionalProperties');
          fields[part.fieldname] = String(part.value ?? '');
        }
      }
    } catch (err) {
      if (err instanceof ApiError) throw err;
      const code = (err as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE')
        throw bad(
          `The file is larger than ${MAX_CHAINCODE_BYTES} bytes; chaincode source is limited to 512 KiB`,
        );
      if (code === 'FST_FILES_LIMIT') throw bad('Send exactly one file');
      throw multipartError(err, reading) ?? err;
    }
    if (!file) throw bad('No file: send the Go source in the field "file"');
    const checked = checkGoSource(file.name, file.bytes);
    if (!checked.ok) throw bad(checked.message);

    let initArgs: string[];
    let args: string[];
    try {
      initArgs = parseArgList(fields.initArgs, 'initArgs');
      args = parseArgList(fields.args, 'args');
    } catch (err) {
      const msg = (err as Error).message;
      throw bad(msg, msg.split(':')[0], 'type');
    }
    const body = {
      name: fields.name ?? '',
      version: fields.version ?? '',
      channel: fields.channel || 'artchannel',
      initArgs,
      args,
      policy: fields.policy ?? '',
      function: fields.function ?? '',
      functionType: fields.functionType || 'invoke',
    };
    const validate = validatorFor('chaincode');
    if (!validate(body)) {
      const errors = formatErrors(validate.errors);
      throw new ApiError(Codes.INVALID, 400, msg('request.invalid', { part: 'body', schema: 'chaincode' }), {
        errors,
      });
    }
    const channel = await app.ledger.channel(body.channel);
    if (!channel) throw bad(`channel: unknown channel "${body.channel}"`, 'channel', 'reference');

    return withRecordLock(`chaincode:${channel.id}:${body.name}:${body.version}`, async () => {
      const exists = await db
        .selectFrom('chaincode')
        .select('id')
        .where('channelId', '=', channel.id)
        .where('name', '=', body.name)
        .where('version', '=', body.version)
        .executeTakeFirst();
      if (exists)
        throw conflict(
          msg('ledger.chaincodeExists', {
            name: body.name,
            version: body.version,
            channel: channel.name,
            id: exists.id,
          }),
        );
      const now = blockTimeText();
      const codeHash = sha256Hex(checked.code);
      const actor = actorOf(req);
      // The row and its audit row in one transaction (the block's hook audits the installation's step).
      const id = await db.transaction().execute(async (trx) => {
        const { id } = await trx
          .insertInto('chaincode')
          .values({
            channelId: channel.id,
            name: body.name,
            version: body.version,
            initArgs: JSON.stringify(body.initArgs),
            args: JSON.stringify(body.args),
            policy: body.policy,
            function: body.function,
            functionType: body.functionType,
            fileName: file!.name,
            code: checked.code,
            codeHash,
            status: 'installed',
            history: '[]',
            createdBy: req.account!.account,
            createTime: now,
            updateTime: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await auditChaincode(trx, actor, id, undefined, await storedRow(trx, 'chaincode', id));
        return id;
      });
      let storedTxId: string | undefined;
      try {
        await app.ledger.submitAndWait(
          {
            channel: channel.name,
            chaincode: LIFECYCLE_CHAINCODE,
            function: LIFECYCLE_FUNCTION.installed,
            args: [body.name, body.version, codeHash],
            creator: req.account!.account,
          },
          { onStored: async (tx) => void (storedTxId = tx.txId) },
        );
      } catch (err) {
        // Never stored on the ledger: do not keep a chaincode whose installation cannot reach the chain.
        // Stored but not yet in a block (a timeout): keep the row; the block fills its history, and until
        // then its next lifecycle step is refused.
        if (!storedTxId || !(await app.ledger.isPending(storedTxId)))
          await db.transaction().execute(async (trx) => {
            const before = await storedRow(trx, 'chaincode', id);
            const gone = await trx
              .deleteFrom('chaincode')
              .where('id', '=', id)
              .where('history', '=', '[]')
              .executeTakeFirst();
            if (Number(gone.numDeletedRows)) await auditChaincode(trx, actor, id, before, undefined);
          });
        throw err;
      }
      return ok(await load(id), 'installed');
    });
  });

  for (const step of ['approved', 'committed'] as const) {
    const path = step === 'approved' ? '/approve' : '/commit';
    app.post(path, { onRequest: admin, schema: { body: idBody } }, async (req) => {
      const { id } = req.body;
      const cc = await load(id);
      return withRecordLock(`chaincode:${cc.channelId}:${cc.name}:${cc.version}`, async () => {
        const current = await load(id);
        // Each step stands on the previous one being on the ledger: an installation whose transaction
        // has not reached a block (history still empty) cannot be approved yet.
        if (current.history.length === 0)
          throw conflict(
            msg('ledger.chaincodeNotOnLedger', { name: current.name, version: current.version }),
          );
        if (current.status !== PREVIOUS_STATUS[step])
          throw conflict(
            msg('ledger.chaincodeWrongStatus', {
              name: current.name,
              version: current.version,
              status: current.status,
              previous: PREVIOUS_STATUS[step],
              step,
            }),
          );
        await app.ledger.submitAndWait({
          channel: current.channel,
          chaincode: LIFECYCLE_CHAINCODE,
          function: LIFECYCLE_FUNCTION[step],
          args: [current.name, current.version, current.codeHash],
          creator: req.account!.account,
        });
        return ok(await load(id), step);
      });
    });
  }
}
