/**
 * The plan library's reader (census/behaviour/probe-library.ts, docs/PROBE.md "The plan library and
 * `probe-census`"): a bad file is an InputError naming the file and the field, before anything is
 * installed; `${scratch}` and `${library}` are the only expansion, in the places library.md says.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { entryOf, materialize, readLibrary } from '../../src/census/behaviour/probe-library.js';
import { InputError } from '../../src/model/input-error.js';

const FILE = 'probes/shop.json';
const good = () => ({
  description: 'a shop',
  server: {
    name: 'shop',
    command: 'node',
    args: ['${library}/shop.mjs', '--db', '${scratch}/db.json'],
    env: { STORE: '${scratch}/store.json' },
    cwd: '${scratch}',
  },
  expect: {
    create_order: { outcome: 'retry-safe', why: 'shop.mjs, createOrder' },
    write: [
      { outcome: 'repeated-effect', why: 'INSERT' },
      { outcome: 'retry-safe', why: 'UPSERT' },
    ],
  },
  plan: {
    setup: [{ tool: 'seed', arguments: { file: '${scratch}/seed.json' } }],
    observe: { tool: 'count' },
    tools: {
      create_order: { arguments: { item: 'book', note: 'in ${scratch}' } },
      write: [{ arguments: { q: 'INSERT' } }, { arguments: { q: 'UPSERT' } }],
    },
  },
});

/** The error `entryOf` throws for `doc`, as the CLI shows it (field and file in the message). */
function errorOf(doc: unknown, file = FILE): InputError {
  try {
    entryOf(doc, file);
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return err as InputError;
  }
  throw new Error('no error');
}

describe('a library file', () => {
  it('reads a good one: its name, package, expect, and the raw plan', () => {
    const e = entryOf(good(), FILE);
    expect(e).toMatchObject({ file: FILE, name: 'shop', package: 'node ${library}/shop.mjs --db ${scratch}/db.json' });
    expect(e.expect?.write).toHaveLength(2);
    expect(entryOf({ ...good(), server: { name: 'shop', npm: '@x/shop@1.2.3' } }, FILE).package).toBe('@x/shop@1.2.3');
  });

  it('names the file and the field of each mistake', () => {
    const cases: [unknown, string][] = [
      [{ ...good(), descripton: 'x' }, 'unknown field "descripton"'],
      [{ ...good(), description: undefined }, 'description'],
      [{ ...good(), server: { ...good().server, comand: 'x' } }, 'server: unknown field "comand"'],
      [{ ...good(), server: { name: 'shop', npm: 'left-pad' } }, 'server.npm'],
      [{ ...good(), server: { ...good().server, name: 'other' } }, 'server.name: other, but the file is shop.json'],
      [{ ...good(), server: { name: 'shop', url: 'https://x.example/mcp' } }, 'server.url'],
      [
        { ...good(), server: { name: 'shop', oci: `docker.io/x/shop@sha256:${'a'.repeat(64)}` } },
        'server.oci: a library server is',
      ],
      [{ ...good(), server: { name: 'shop', pypi: 'shop-mcp==1.0.0' } }, 'server.pypi: a library server is'],
      [
        { ...good(), plan: { tools: { create_order: { argumnets: {} } } } },
        'plan.tools.create_order: unknown field "argumnets"',
      ],
      [
        { ...good(), plan: { ...good().plan, setup: [{ tool: 'seed', args: {} }] } },
        'plan.setup[0]: unknown field "args"',
      ],
      [{ ...good(), expect: { create_order: { outcome: 'fine', why: 'x' } } }, 'expect.create_order.outcome'],
      [{ ...good(), expect: { create_order: { outcome: 'retry-safe' } } }, 'expect.create_order.why'],
    ];
    for (const [doc, words] of cases) {
      const err = errorOf(doc);
      expect(err.file).toBe(FILE);
      expect(err.message).toContain(words);
    }
  });

  it("checks expect's shape against the plan's", () => {
    const { expect: e } = good();
    const shape = (expect_: unknown) => errorOf({ ...good(), expect: expect_ }).message;
    expect(shape({ ...e, delete: { outcome: 'failed', why: 'x' } })).toContain(
      'expect.delete: the plan does not probe "delete"',
    );
    expect(shape({ ...e, write: e.create_order })).toContain('expect.write: the plan lists 2 cases: give a list of 2');
    expect(shape({ ...e, write: [e.write[0]] })).toContain('expect.write: the plan lists 2 cases and this 1');
    expect(shape({ ...e, create_order: [e.create_order] })).toContain(
      'expect.create_order: the plan probes this tool once',
    );
    // A tool the plan probes but expect leaves out: allowed (its rows have no `expected`).
    expect(entryOf({ ...good(), expect: { create_order: e.create_order } }, FILE).expect).not.toHaveProperty('write');
  });

  it('refuses any other ${...}, and the two placeholders outside the places they expand', () => {
    const g = good();
    const cases: [unknown, string][] = [
      [{ ...g, server: { ...g.server, env: { TOKEN: '${GITHUB_TOKEN}' } } }, 'server.env.TOKEN'],
      [{ ...g, server: { ...g.server, args: ['${HOME}/x'] } }, 'server.args[0]'],
      [{ ...g, server: { ...g.server, command: '${library}/run' } }, 'server.command'],
      [{ ...g, server: { ...g.server, env: { '${scratch}': 'x' } } }, 'server.env.${scratch}'],
      [
        { ...g, plan: { ...g.plan, observe: { tool: 'count', arguments: { p: '${scratch}/${USER}' } } } },
        'plan.observe.arguments.p',
      ],
    ];
    for (const [doc, field] of cases) {
      const err = errorOf(doc);
      expect(err.message).toContain(`${field}: `);
      expect(err.message).toContain('expands ${scratch} and ${library}');
    }
  });
});

describe('materialize', () => {
  it('replaces ${scratch} and ${library} in args, env values, cwd and every string of the plan', () => {
    const places = { scratch: '/s/$1', library: '/lib' };
    const { target, plan } = materialize(entryOf(good(), FILE), places);
    expect(target).toMatchObject({
      kind: 'command',
      name: 'shop',
      command: 'node',
      args: ['/lib/shop.mjs', '--db', '/s/$1/db.json'],
      env: { STORE: '/s/$1/store.json' },
      cwd: '/s/$1',
    });
    // Its source says it is a library's: a missing package's advice is probe-census's, not `install FILE`.
    expect(target.source).toBe('probes/shop.json#server (plan library)');
    expect(plan.setup?.[0]?.arguments).toEqual({ file: '/s/$1/seed.json' });
    expect(plan.tools.create_order).toMatchObject({ arguments: { item: 'book', note: 'in /s/$1' } });
  });
});

describe('readLibrary', () => {
  it('reads DIR/*.json sorted by name, --only picks some, and a name it lacks is an error', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-library-'));
    for (const name of ['b', 'a'])
      writeFileSync(path.join(dir, `${name}.json`), JSON.stringify({ ...good(), server: { ...good().server, name } }));
    writeFileSync(path.join(dir, 'notes.txt'), 'not a plan');
    expect((await readLibrary(dir)).map((e) => e.name)).toEqual(['a', 'b']);
    expect((await readLibrary(dir, ['b'])).map((e) => e.name)).toEqual(['b']);
    await expect(readLibrary(dir, ['c'])).rejects.toThrow('--only: no file c.json in');
    writeFileSync(path.join(dir, 'c.json'), '{ not json');
    await expect(readLibrary(dir)).rejects.toMatchObject({
      file: path.join(dir, 'c.json'),
      message: expect.stringContaining('not JSON'),
    });
    await expect(readLibrary(path.join(dir, 'none'))).rejects.toThrow('cannot read the plan library');
  });
});
