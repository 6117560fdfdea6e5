import { describe, expect, it } from 'vitest';
import { withoutHeapAddresses } from './ffmpeg-output.js';

describe('ffmpeg text for people', () => {
  it('drops the "[component @ 0x…]" prefixes, keeps the reason', () => {
    expect(
      withoutHeapAddresses(
        '[mp3 @ 0x55d0c3a1b2c0] Format mp3 detected only with low score of 1, misdetection possible!',
      ),
    ).toBe('Format mp3 detected only with low score of 1, misdetection possible!');
    expect(
      withoutHeapAddresses('[in#0 @ 0x7f00aa] Error opening input: Invalid data found when processing input'),
    ).toBe('Error opening input: Invalid data found when processing input');
    expect(withoutHeapAddresses('the file: Invalid data found when processing input')).toBe(
      'the file: Invalid data found when processing input',
    );
  });
});
