/**
 * The core's refusals a screen shows, by their messageId (contract/errors.ts): the same words the core
 * sends in English, here so a window says them in its own language. A refusal whose id is not here is
 * shown as the core worded it.
 */
export const errors = {
  session: {
    signInFirst: 'Sign in first.',
    ownPinOnly: "Only your own PIN is changed here: a manager resets another employee's PIN in Employees.",
    tooManyWrong: 'Too many wrong PINs. Try again in {{seconds}} s.',
    tooManyChanges: 'Too many PIN changes today. Try again in {{hours}} h.',
    wrongPin: 'Wrong PIN.',
    oneTimeExpired: 'This one-time PIN has expired: ask a manager for a new one.',
    clockInFirst: 'Clock in first: type your PIN and choose Clock in.',
    pinShape: 'A PIN is 4 to 8 digits.',
    pinWeak:
      'That PIN is too easy to guess (one digit repeated, a run like 1234, a pair like 1212): choose another.',
    pinCurrentMissing: 'Type the current PIN to change it.',
    pinSame: 'Choose a new PIN, not the one you have.',
    pinNotChanged: 'The PIN was not changed. Check your current PIN, or choose a different new PIN.',
    timeClockOff: 'The time clock is off: a manager turns it on in Employees.',
    clockOneTime: 'Sign in first to choose your own PIN, then clock in with it.',
    alreadyClockedIn: '{{name}}, you are already clocked in.',
    notClockedIn: '{{name}}, you are not clocked in.',
  },
  approval: {
    managerMust: 'A manager must approve this: enter a manager PIN.',
    wrongManagerPin: 'The manager PIN is not correct.',
  },
  till: {
    noTillForCash: 'No till is open on this lane: open a till on the Till screen to take cash.',
    noTillForCashBack: 'No till is open on this lane: open a till on the Till screen to pay cash back.',
    alreadyOpen: 'Till {{tillId}} ({{employee}}) is in the drawer: hand it over or count it first.',
    noTillOpen: 'No till is open on this lane: open a till first (Till screen).',
    amountPositive: 'The amount must be a positive number of cents.',
    noCashOrCheckPayment: 'No cash or check payment with that number on this lane.',
    lessLeftToGiveBack: 'That payment has less left to give back.',
    noCashSale: 'No cash sale with that number on this lane.',
    cashSaleState: 'That cash sale is {{state}}.',
    refundedInFull: 'That cash sale is refunded in full already.',
    refundAtMost: 'At most {{amount}} can be refunded on that sale.',
    noSuchTill: 'No till {{tillId}} on this lane.',
    countedAlready: 'Till {{tillId}} is counted already.',
    nothingToSignOff: 'Till {{tillId}} has no count waiting for a sign-off.',
    dayNotClosed_one: 'The day cannot close yet: till {{tills}} is not closed (count it and sign it off).',
    dayNotClosed_other:
      'The day cannot close yet: tills {{tills}} are not closed (count them and sign them off).',
    noSuchZ: 'No Z report {{zNumber}} on this lane.',
    saleOpen: 'A sale is open on this lane: finish or abandon it first.',
    giveReason: 'Give a reason.',
    enterAmount: 'Enter the amount.',
    badCount: 'Count each bill, coin and roll as a whole number of pieces.',
  },
};
