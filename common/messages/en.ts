/**
 * English texts of the server's messages, by stable message key (the envelope's `key`; common/envelope.ts).
 *
 * To add a message: add ONE line here (`'area.what': 'Text with %{param}'`) and its Chinese in
 * common/messages/zh.ts, then throw `apiError(code, status, 'area.what', { param })` (server/errors.ts)
 * or pass `msg('area.what', { param })` where a `Message` is taken. TypeScript refuses a key missing from
 * zh.ts, and common/messages/messages.test.ts fails on any key the code uses that either catalogue lacks
 * or on placeholders that differ between the two.
 *
 * Placeholders are polyglot's `%{name}` (the console's i18n library). A param may be a `{ en, zh }` text
 * (e.g. a resource's label: common/messages/index.ts `schemaLabel`), taken in the language rendered.
 * `%{details}` is filled by the renderer (`renderMessage`), never by the caller: one line per
 * `data.errors` entry, "<field label>: <keyword text>" in the language asked; `%{part}` names a
 * `part.*` key below.
 * The English texts are the server's `msg` when `Accept-Language` asks for no language we have.
 */
export const serverMessagesEn = {
  // Invalid input (HTTP 400): details from data.errors
  'request.invalid': 'Invalid %{part}: %{details}',
  'request.fields': '%{details}',
  // What `request.invalid`'s %{part} names (Fastify's validation contexts)
  'part.body': 'body',
  'part.querystring': 'query',
  'part.params': 'path parameters',
  'part.headers': 'headers',
  // Labels of the fields no schema declares (query parameters, upload parts, headers)
  'field.q': 'search text',
  'field.file': 'file',
  'field.from': 'from',
  'field.to': 'to',
  'field.channel': 'channel',
  'field.Content-Type': 'Content-Type',
  // An item without a label of its own: its list's label and its place (index.ts `itemLabel`)
  'label.item': '%{label}, item %{n}',
  'label.value': '%{label}, value %{n}',
  // Transport and protocol
  'request.noSuchCall': 'No such call: %{method} %{path}',
  'health.notReady': 'Not ready: %{reasons}',
  'metrics.token': 'The metrics need the token of METRICS_TOKEN (Authorization: Bearer <token>)',
  'request.malformed': 'Malformed HTTP request',
  'request.urlTooLong':
    'The URL (path and query) is too long: the request line and headers must fit in 16 KiB',
  'request.headersTooLarge':
    'The request headers are too large: the request line and headers must fit in 16 KiB',
  'request.timeout': 'The request was not received in time',
  'request.bodyTooLarge': 'Request body is too large',
  'request.rateLimited': 'Too many requests: retry in %{after}',
  'request.failed': 'The request was refused (HTTP %{status})',
  'server.internal': 'Internal server error',
  'ledger.halted':
    'The ledger refuses new transactions: its stored history does not extend the last checkpoint it signed (%{reason}). An operator must investigate; nothing is signed until then',
  // Sessions and roles
  'auth.badCredentials': 'Incorrect username or password',
  'auth.notSignedIn': 'Not signed in: send the X-Token header',
  'auth.tokenInvalid': 'Your session has expired or was revoked; please log in again',
  'auth.roleRequired': 'This call needs the role %{roles}',
  'auth.accountLacksRole': 'Your account does not have the role "%{role}"',
  'auth.accountDisabled': 'This company administrator account is disabled (its company record says so)',
  'auth.mustChangePassword': 'Change the initial password first (POST /app-api/user/password)',
  // Records (the schema kernel)
  'views.ownerOnly': 'Only the account that saved this view can change or delete it',
  'record.notFound': '%{label} %{id} does not exist',
  'record.deleteReferenced':
    'Cannot delete %{records}: refused while the %{label} has %{referrerResources}; delete or reassign their %{referrerResources} first',
  'record.deleteReferencedMeanwhile':
    'Refused: another record still references this one (added meanwhile); delete or reassign it first',
  'record.manyFailed': 'Nothing was saved: %{label} %{id} refused the change: %{details}',
  'record.stale':
    '%{label} %{id} was changed by %{actor} since you loaded it (revision %{revision}; yours is %{yours}): review the changes and try again',
  // The pigeonhole (archive and restore)
  'pigeonhole.referenced':
    'Cannot archive %{label} %{id}: %{count} %{referrer} still refer to it; archive or reassign them first',
  'pigeonhole.restoreReference':
    'Cannot restore %{label} %{id}: the %{field} it refers to (%{ref}) no longer exists; restore or recreate it first',
  'pigeonhole.restoreIdTaken': 'Cannot restore %{label} %{id}: a record with this id exists',
  // The console's import: the columns of the reject report (kernel/server/importJobs.ts; the dialog's
  // table shows the same, src/i18n/baas.ts `transfer.row`, `field`, `reason`)
  'import.reportRow': 'Row',
  'import.reportField': 'Field',
  'import.reportReason': 'Reason',
  // The header row of an import file, at the top of its dry run (kernel/server/importColumns.ts)
  'import.columnsUnknown': 'Unknown columns (not imported): %{columns}.',
  'import.columnsMissing': 'Missing required columns (a new row needs them): %{columns}.',
  // Ledger
  'ledger.authorNotOnChain':
    'The author "%{authorName}" (id %{author}) is not on chain yet: put the author on chain before their artworks',
  'ledger.channelNotFound': 'Channel %{id} does not exist',
  'ledger.notPublished':
    '%{kind} %{id} is not published: it is not on chain, or its public page is switched off',
  'ledger.notOnChain': '%{kind} %{id} is not on chain',
  'ledger.blockNotFound': 'Block %{number} of channel %{channel} does not exist',
  'ledger.txNotFound': 'Transaction %{txId} does not exist',
  'ledger.txPending': 'Transaction (still waiting for its block) %{txId} does not exist',
  'ledger.chaincodeNotFound': 'Chaincode %{id} does not exist',
  'ledger.chaincodeExists':
    'Chaincode %{name} version %{version} is already installed on channel %{channel} (id %{id})',
  'ledger.chaincodeNotOnLedger':
    'Chaincode %{name} %{version}: its installation is not on the ledger yet; try again shortly',
  'ledger.chaincodeWrongStatus':
    'Chaincode %{name} %{version} is %{status}; it must be %{previous} to become %{step} (installed → approved → committed)',
} as const;

/** A stable message key of the server (the envelope's `key`). */
export type MessageKey = keyof typeof serverMessagesEn;

/**
 * English texts of the field errors' keywords (`FieldError.keyword`: JSON Schema keywords, the x- keywords
 * of kernel/dialect/keywords.ts and the envelope's own: json, encoding, propertyNames, boundary, multipart,
 * contentType, maxBodyLength, maxHeaderSize, reference, maxSize, imageType). Used by the console's forms
 * (`baas.validation.*`, src/i18n/baas.ts) and by the server's and console's rendering of `%{details}`.
 */
export const fieldMessagesEn = {
  required: 'Required',
  type: 'Must be of type %{type}',
  minLength: 'Must be at least %{limit} characters',
  maxLength: 'Must be at most %{limit} characters',
  minimum: 'Must be at least %{limit}',
  maximum: 'Must be at most %{limit}',
  exclusiveMinimum: 'Must be greater than %{limit}',
  exclusiveMaximum: 'Must be less than %{limit}',
  pattern: 'Invalid format',
  format: 'Must be a valid %{format}',
  enum: 'Must be one of: %{values}',
  const: 'Invalid value',
  minItems: 'At least %{limit} items',
  maxItems: 'At most %{limit} items',
  additionalProperties: 'Not a known field: %{additionalProperty}',
  'false schema': 'Read-only: it cannot be sent',
  'x-maxWidth': 'At most %{limit} wide (%{chars} Chinese characters); this is %{width} wide',
  'x-plainText': {
    control: 'Must not contain control characters',
    markup: 'Must not contain < or >',
    blank: 'Must not be blank',
    bidi: 'Must not contain bidirectional control characters',
    invisible: 'Must contain a visible character',
  },
  'x-text': {
    control: 'Must not contain control characters (line breaks only where the field allows several lines)',
    surrogate: 'Must not contain an unpaired UTF-16 surrogate',
  },
  'x-finite': 'Must be a finite number',
  'x-url': 'Must be an http or https URL, or an uploaded file (/uploads/...)',
  'x-notFuture': 'Must not be after %{limit}',
  'x-ordered': '%{first} must not be after %{second}',
  'x-uscc':
    'Wrong check character: with these first 17 characters the 18th must be %{expected} (GB 32100-2015)',
  'x-distinct': 'Must differ from %{first}',
  unique: 'Already used by another record',
  schema: 'Not a usable JSON Schema (see the parameter schema rules)',
  reference: 'No record %{id} exists',
  json: 'The body is not valid JSON',
  encoding: 'The body is not valid UTF-8',
  propertyNames: 'The key "%{propertyName}" is not allowed',
  boundary: 'multipart/form-data needs a boundary parameter',
  multipart: 'The multipart body ends before its closing boundary (truncated upload)',
  contentType: 'This Content-Type is not accepted here',
  maxBodyLength: 'Must be at most %{limit} bytes',
  maxHeaderSize: 'The request line and headers must fit in %{limit} bytes',
  maxSize: 'Must be at most %{limit} bytes',
  imageType: 'Must be a JPEG, PNG, GIF or WebP image',
  chaincode: 'Not a valid chaincode upload (a Go source file in the field "file")',
  conflict: 'Conflicts with a stored record',
  invalid: 'Invalid: %{message}',
  lastAdmin: '"%{username}" is the last account with the admin role: grant admin to another account first',
  password: 'The current password is not right',
  samePassword: 'Must differ from the current password',
  checkpoint: 'Not a checkpoint of this ledger',
  cosignature: 'The cosignature does not verify',
  expired: 'The upload policy has expired',
  fileType: 'Not an accepted file type (checked by content)',
  not: 'Must not be sent with this call',
  origin: "Not this ledger's origin",
  signature: 'The signature does not verify',
  unknown: 'Not a part this call reads',
  'x-bound': 'Already bound to another key',
  'x-monotonic': 'Older than the checkpoint already cosigned (size %{size})',
  'x-upload': 'This field takes no uploaded file',
  accountExists: 'The account "%{username}" exists: it is linked as it is, leave the password empty',
  companyAdmin: 'The account "%{username}" is already an administrator of company %{companyId}',
  recipients: 'The company has no enabled administrator who receives notifications',
  sentFrozen: 'A sent notification cannot be changed',
  revision: 'Is a revision of another record (%{resource} %{recordId})',
  revisionValues: 'This revision cannot be restored: it is a delete, or older than the recorded values',
  readByRecipient: 'Only a recipient marks a notification read (Medicine > Messages)',
  // The console's import file (server/routes/dev-api/import, kernel/server/importColumns.ts)
  importMaxSize: 'Must be at most %{size} (the import limit, IMPORT_MAX_BYTES)',
  textEncoding:
    'Cannot be read as text: %{found}; save it as UTF-8, GB18030 (GBK) or UTF-16 with a byte-order mark',
  columns:
    'None of its columns is a field of %{resource} (%{columns}): the first row must name the fields, e.g. %{expected}',
  fileFormat: 'Cannot be read as %{format}: %{reason}',
};
