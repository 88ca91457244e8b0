import { describe, expect, it } from 'vitest';
import { parseGcLine } from './gc-windows';

describe('parseGcLine (the benches read the server\'s --trace-gc)', () => {
  it('reads a mark-compact as Node 20 and Node 24 print it, and a scavenge', () => {
    const node20 = '[1:0x1]  22064 ms: Mark-Compact 216.4 (250.5) -> 63.6 (250.5) MB, 5.72 / 0.02 ms  (+ 3.5 ms in 34 steps since start of marking, biggest step 0.3 ms, walltime since start of marking 59 ms) (average mu = 0.99';
    const node24 = '[2:0x2]    370 ms: Mark-Compact 171.4 (279.0) -> 44.2 (174.3) MB, pooled: 39 MB, 62.45 / 0.00 ms  (+ 1.2 ms in 5 steps since start of marking, biggest step 0.4 ms, walltime since start of marking 70 ms) (average mu = 0.829';
    expect(parseGcLine(node20)).toEqual({ ms: 22064, kind: 'mark-compact', before: 216.4, after: 63.6, pause: 5.72, marking: 59 });
    expect(parseGcLine(node24)).toEqual({ ms: 370, kind: 'mark-compact', before: 171.4, after: 44.2, pause: 62.45, marking: 70 });
    expect(parseGcLine('[3:0x3]  285 ms: Scavenge (interleaved) 130.6 (195.4) -> 130.5 (259.4) MB, pooled: 0 MB, 12.43 / 0.00 ms  (average mu = 0.583')).toMatchObject({ kind: 'scavenge', pause: 12.43, marking: 0 });
    expect(parseGcLine('a line about something else')).toBeUndefined();
  });
});
