import { describe, expect, it } from 'vitest';
import type { Item } from '@/server/services/questionnaires/rules';
import { answerDisplay, csvCell, responsesCsv } from './answers';

const items: Item[] = [
  { linkId: 'intro', type: 'display', text: 'Hello' },
  { linkId: 'smoker', type: 'boolean', text: 'Smoke?' },
  { linkId: 'allergies', type: 'choice', repeats: true, text: 'Allergies', options: [{ value: 'latex', display: 'Latex' }, { value: 'nuts', display: 'Nuts' }] },
  { linkId: 'note', type: 'text', text: 'Note' },
];

describe('answers as words and CSV', () => {
  it('shows option labels and Yes/No', () => {
    expect(answerDisplay(items[1], true)).toBe('Yes');
    expect(answerDisplay(items[2], ['latex', 'nuts'])).toBe('Latex, Nuts');
  });

  it('writes one column per item, quotes what needs quoting and disarms formulas', () => {
    const csv = responsesCsv(
      items,
      [
        { id: 1, subjectId: 7, status: 'completed', questionnaireVersion: 1, authoredAt: '2026-01-01T00:00:00.000Z', answers: [{ linkId: 'smoker', value: false }, { linkId: 'note', value: 'said "no",\nthen left' }] },
        { id: 2, subjectId: 8, status: 'amended', questionnaireVersion: 2, authoredAt: '2026-01-02T00:00:00.000Z', answers: [{ linkId: 'allergies', value: ['latex', 'nuts'] }, { linkId: 'old', value: '=HYPERLINK("x")' }] },
      ],
      (id) => (id === 7 ? 'Pat, Jr.' : 'Sam'),
    );
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('response_id,member_id,member,status,version,authored_at,smoker,allergies,note,old');
    expect(lines[1]).toBe('1,7,"Pat, Jr.",completed,1,2026-01-01T00:00:00.000Z,false,,"said ""no"",\nthen left",');
    expect(lines[2]).toBe(`2,8,Sam,amended,2,2026-01-02T00:00:00.000Z,,latex; nuts,,"'=HYPERLINK(""x"")"`);
    expect(csvCell('-1')).toBe("'-1");
  });
});
