import type { OriginalCard } from '@tps/link';
import type { ReadingType } from '@tps/domain';

export interface TestCard {
  pan: string;
  cardHolderName: string;
  cardType: 'CREDIT' | 'DEBIT';
  franchise: string;
  aid: string;
}

/** The simulator's card box: a credit card by default, a debit card for scenario 07. */
export const TEST_CARDS = {
  credit: {
    pan: '4242424242424242',
    cardHolderName: 'SANDBOX/CARDHOLDER',
    cardType: 'CREDIT',
    franchise: 'VISA',
    aid: 'A0000000031010',
  },
  debit: {
    pan: '5555555555554444',
    cardHolderName: 'SANDBOX/DEBITO',
    cardType: 'DEBIT',
    franchise: 'MASTERCARD',
    aid: 'A0000000041010',
  },
} as const satisfies Record<string, TestCard>;

export function maskPan(pan: string): string {
  return `${'*'.repeat(Math.max(0, pan.length - 4))}${pan.slice(-4)}`;
}

export function originalCard(card: TestCard, readingType: ReadingType): OriginalCard {
  return {
    readingType,
    cardType: card.cardType,
    franchise: card.franchise,
    pan: maskPan(card.pan),
    bin: card.pan.slice(0, 6),
  };
}

/** The card of the box that a follow-up's original transaction was paid with. */
export function cardOfOriginal(original: OriginalCard): TestCard {
  const cards: TestCard[] = Object.values(TEST_CARDS);
  return (
    cards.find((card) => maskPan(card.pan) === original.pan) ??
    (original.cardType === 'DEBIT' ? TEST_CARDS.debit : TEST_CARDS.credit)
  );
}
