import { head, NAME_LIMIT } from '../names.js';
import { RULE } from '../../model/catalogue.js';
import type { ToolRule } from './types.js';

const ALLOWED = /^[\w.-]{1,128}$/;

/** The spec: a tool name SHOULD be 1-128 characters of `A-Za-z0-9_.-`; clients may reject others. */
export const invalidToolName: ToolRule = {
  id: RULE.invalidToolName,
  check: ({ raw }) => {
    const name = String(raw.name);
    if (ALLOWED.test(name)) return [];
    const bad = [...new Set(head(name, NAME_LIMIT).replace(/[\w.-]/g, ''))].slice(0, 8);
    const why = [
      name.length === 0 ? 'it is empty' : name.length > 128 ? `it is ${name.length} characters long` : '',
      bad.length > 0 ? `it contains ${bad.map((c) => JSON.stringify(c)).join(', ')}` : '',
    ].filter(Boolean);
    return [
      {
        message: `${why.join(' and ')}; names should be 1-128 characters of A-Za-z0-9_.- (some clients reject or rewrite others)`,
        evidence: 'name',
      },
    ];
  },
};
