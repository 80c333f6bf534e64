/**
 * Witness policies (C2SP tlog-policy, common/ledger/policy.ts) and the add-checkpoint framing
 * (common/ledger/witness.ts): the spec's example parses, line errors are named, and a k-of-n quorum is met
 * exactly when at least k of the n witnesses cosigned (fast-check over k, n and the cosigners).
 */
import { generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COSIGNATURE_TYPE, ED25519_TYPE } from './note';
import { evaluatePolicy, parsePolicy, PolicyError } from './policy';
import { formatAddCheckpoint, formatVkey, parseAddCheckpoint, parseVkey } from './witness';

const raw = () =>
  new Uint8Array(
    Buffer.from(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!, 'base64url'),
  );
const keys = Array.from({ length: 8 }, raw);
const witnessVkey = (i: number) => formatVkey(`w${i}.example/witness`, keys[i], COSIGNATURE_TYPE);
const logVkey = () => formatVkey('registry.example/artchannel', keys[7], ED25519_TYPE);

describe('tlog-policy', () => {
  it('parses the spec example (two groups of three, 2-of-X and any-of-Y) and evaluates it', async () => {
    const w = await Promise.all([0, 1, 2, 3, 4, 5].map(witnessVkey));
    const text = `# comment
log ${await logVkey()} https://registry.example

witness X1 ${w[0]}
witness X2 ${w[1]}\thttps://x2.example
witness X3 ${w[2]}
group X-witnesses 2 X1 X2 X3
  witness Y1 ${w[3]}
witness Y2 ${w[4]}
witness Y3 ${w[5]}
group Y-witnesses any Y1 Y2 Y3
group X-and-Y all X-witnesses Y-witnesses
quorum X-and-Y
`;
    const p = await parsePolicy(text);
    expect(p.logs.map((l) => l.vkey.name)).toEqual(['registry.example/artchannel']);
    expect(p.witnesses.map((x) => x.name)).toEqual(['X1', 'X2', 'X3', 'Y1', 'Y2', 'Y3']);
    expect(p.witnesses[1].url).toBe('https://x2.example');
    expect(p.groups.map((g) => [g.name, g.k])).toEqual([
      ['X-witnesses', 2],
      ['Y-witnesses', 1],
      ['X-and-Y', 2],
    ]);
    const names = (...i: number[]) => i.map((n) => `w${n}.example/witness`);
    expect(evaluatePolicy(p, names(0, 1, 3))).toEqual({
      ok: true,
      cosigned: 3,
      witnesses: 6,
      cosigners: names(0, 1, 3),
    });
    expect(evaluatePolicy(p, names(0, 3, 4, 5)).ok).toBe(false);
    expect(evaluatePolicy(p, names(0, 1)).ok).toBe(false);
    // A name that is not in the policy counts for nothing.
    expect(evaluatePolicy(p, [...names(0), 'other.example']).cosigned).toBe(1);
  });

  it('names the line of each error', async () => {
    const w0 = await witnessVkey(0);
    const cases: [string, RegExp][] = [
      [`witness A ${w0}\n`, /line 1: the policy has no quorum line/],
      [`quorum A\n`, /line 1: quorum "A" is not defined/],
      [`witness A ${w0}\ngroup G 2 A\nquorum G\n`, /line 2: threshold "2" must be all, any or 1..1/],
      [`witness A ${w0}\nwitness B ${w0}\nquorum A\n`, /line 2: .*listed twice/],
      [`witness A ${w0}\nquorum A\nquorum none\n`, /line 3: a second quorum line/],
      [`witness A ${await logVkey()}\nquorum A\n`, /line 1: .*signature type 0x01, expected 0x04/],
      [`witnesses A ${w0}\nquorum none\n`, /line 1: unknown keyword "witnesses"/],
      [`witness A ${w0.replace(/.\+/, 'x+')}\nquorum A\n`, /line 1: .*key ID/],
      [`witness A ${w0}\ngroup G any A A\nquorum G\n`, /line 2: a member is listed twice/],
    ];
    for (const [text, error] of cases) {
      const err = await parsePolicy(text).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(PolicyError);
      expect((err as Error).message).toMatch(error);
    }
  });

  it('quorum none is met by nobody; a k-of-n group exactly when at least k cosigned', async () => {
    const w = await Promise.all([0, 1, 2, 3, 4, 5].map(witnessVkey));
    expect(evaluatePolicy(await parsePolicy('quorum none\n'), [])).toMatchObject({ ok: true, witnesses: 0 });
    await fc.assert(
      fc.asyncProperty(
        fc
          .integer({ min: 1, max: 6 })
          .chain((n) =>
            fc.tuple(fc.constant(n), fc.integer({ min: 1, max: n }), fc.subarray([...Array(n).keys()])),
          ),
        async ([n, k, signed]) => {
          const lines = w.slice(0, n).map((v, i) => `witness W${i} ${v}`);
          const p = await parsePolicy(
            `${lines.join('\n')}\ngroup G ${k} ${lines.map((_, i) => `W${i}`).join(' ')}\nquorum G\n`,
          );
          const r = evaluatePolicy(
            p,
            signed.map((i) => `w${i}.example/witness`),
          );
          expect(r).toMatchObject({ ok: signed.length >= k, cosigned: signed.length, witnesses: n });
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('add-checkpoint framing (tlog-witness)', () => {
  const note = 'o\n1\n' + 'A'.repeat(43) + '=\n\n\u2014 o AAAAAAAA\n';

  it('round-trips the old size, the proof and the note', () => {
    const proof = [new Uint8Array(32).fill(1), new Uint8Array(32).fill(2)];
    const body = formatAddCheckpoint({ oldSize: 5, proof, note });
    expect(body.startsWith('old 5\nAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=\n')).toBe(true);
    expect(parseAddCheckpoint(body)).toEqual({ oldSize: 5, proof, note });
  });

  it('refuses leading zeroes, short hashes, a 64th proof line and a missing empty line', () => {
    expect(() => parseAddCheckpoint(`old 05\n\n${note}`)).toThrow(/old <size>/);
    expect(() => parseAddCheckpoint(`old 5\nAAAA\n\n${note}`)).toThrow(/proof line 1 is not a 32-byte hash/);
    const line = `${Buffer.alloc(32).toString('base64')}\n`;
    expect(() => parseAddCheckpoint(`old 5\n${line.repeat(64)}\n${note}`)).toThrow(/at most 63/);
    expect(parseAddCheckpoint(`old 5\n${line.repeat(63)}\n${note}`).proof).toHaveLength(63);
    expect(() => parseAddCheckpoint(`old 5\n${line}`)).toThrow(/no empty line/);
    expect(() =>
      formatAddCheckpoint({ oldSize: 1, proof: Array(64).fill(new Uint8Array(32)), note }),
    ).toThrow(/at most 63/);
  });

  it('parses a cosigner vkey and refuses a note signer where a cosigner is expected', async () => {
    const v = await witnessVkey(0);
    expect(await parseVkey(v)).toMatchObject({ name: 'w0.example/witness', type: COSIGNATURE_TYPE });
    await expect(parseVkey(await logVkey(), [COSIGNATURE_TYPE])).rejects.toThrow(/type 0x01/);
  });
});
