/**
 * The smart-contract templates the platform ships (Medicine > Smart contracts), so that a contract can be
 * made on a fresh install: a drug supply agreement, a cold-chain storage contract and an artwork
 * consignment. Each `paramsSchema` is a restricted draft-07 object schema (schemas/contractTemplate.schema.json
 * `definitions.paramsSchema`), labelled in English and Chinese. Frozen once landed: a later change of the
 * templates is a new migration (or an operator's edit through the API).
 */
import type { Kysely } from 'kysely';

const label = (en: string, zh: string) => ({ 'x-i18n': { en, zh } });

/** The templates, as stored (paramsSchema as JSON text on insert). */
export const SHIPPED_TEMPLATES = [
  {
    name: 'Drug supply agreement',
    description: 'A supplier delivers a quantity of a drug at a unit price within a number of days.',
    chaincode: 'drugsupply',
    version: '1.0',
    paramsSchema: {
      type: 'object',
      properties: {
        supplier: { type: 'string', minLength: 1, maxLength: 60, ...label('Supplier', '供货方') },
        drugName: { type: 'string', minLength: 1, maxLength: 60, ...label('Drug name', '药品名称') },
        quantity: {
          type: 'integer',
          minimum: 1,
          maximum: 1000000,
          ...label('Quantity (boxes)', '数量（盒）'),
        },
        unitPrice: {
          type: 'number',
          exclusiveMinimum: 0,
          maximum: 1000000,
          ...label('Unit price (CNY)', '单价（元）'),
        },
        deliveryDays: {
          type: 'integer',
          minimum: 1,
          maximum: 365,
          default: 30,
          ...label('Delivery within (days)', '交付期限（天）'),
        },
        coldChain: { type: 'boolean', default: false, ...label('Cold chain', '冷链运输') },
      },
      required: ['supplier', 'drugName', 'quantity', 'unitPrice'],
      additionalProperties: false,
    },
  },
  {
    name: 'Cold-chain storage',
    description: 'A warehouse keeps goods between two temperatures for a number of months.',
    chaincode: 'coldchain',
    version: '1.0',
    paramsSchema: {
      type: 'object',
      properties: {
        warehouse: { type: 'string', minLength: 1, maxLength: 60, ...label('Warehouse', '仓库') },
        minTemp: {
          type: 'number',
          minimum: -40,
          maximum: 25,
          ...label('Lowest temperature (°C)', '最低温度（°C）'),
        },
        maxTemp: {
          type: 'number',
          minimum: -40,
          maximum: 25,
          ...label('Highest temperature (°C)', '最高温度（°C）'),
        },
        months: {
          type: 'integer',
          minimum: 1,
          maximum: 60,
          default: 12,
          ...label('Term (months)', '期限（月）'),
        },
      },
      required: ['warehouse', 'minTemp', 'maxTemp'],
      additionalProperties: false,
    },
  },
  {
    name: 'Artwork consignment',
    description: 'An owner consigns a registered artwork for sale with a reserve price and a commission.',
    chaincode: 'artconsign',
    version: '1.0',
    paramsSchema: {
      type: 'object',
      properties: {
        consignor: { type: 'string', minLength: 1, maxLength: 60, ...label('Consignor', '委托方') },
        reservePrice: {
          type: 'number',
          minimum: 0,
          maximum: 1000000000,
          ...label('Reserve price (CNY)', '保留价（元）'),
        },
        commissionRate: {
          type: 'number',
          minimum: 0,
          maximum: 30,
          default: 10,
          ...label('Commission (%)', '佣金比例（%）'),
        },
        saleType: {
          type: 'string',
          enum: ['auction', 'private'],
          default: 'auction',
          ...label('Sale type', '销售方式'),
        },
      },
      required: ['consignor', 'reservePrice'],
      additionalProperties: false,
    },
  },
];

/** UTC `YYYY-MM-DD HH:mm:ss` (the project's time text). */
const now = () => new Date().toISOString().slice(0, 19).replace('T', ' ');

export async function up(db: Kysely<any>): Promise<void> {
  const time = now();
  for (const t of SHIPPED_TEMPLATES)
    await db
      .insertInto('contract_templates')
      .values({
        ...t,
        paramsSchema: JSON.stringify(t.paramsSchema),
        status: 1,
        createTime: time,
        updateTime: time,
      })
      .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db
    .deleteFrom('contract_templates')
    .where(
      'name',
      'in',
      SHIPPED_TEMPLATES.map((t) => t.name),
    )
    .execute();
}
