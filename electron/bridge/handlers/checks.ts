import type { DeviceRoleName, ManagerApproval } from '../contract';
import { BridgeFailure } from '../failure';

export const DEVICE_ROLES: readonly DeviceRoleName[] = [
  'cardReader',
  'pinPad',
  'contactless',
  'signaturePad',
  'receiptPrinter',
];

export function str(value: unknown, name: string, max = 256): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > max)
    throw new BridgeFailure('invalid', `${name} is required (at most ${max} characters).`);
  return value;
}

export function role(value: unknown): DeviceRoleName {
  if (typeof value !== 'string' || !(DEVICE_ROLES as readonly string[]).includes(value))
    throw new BridgeFailure('invalid', 'Unknown device role.');
  return value as DeviceRoleName;
}

export function approvalOf(value: unknown): ManagerApproval | undefined {
  if (value === undefined) return undefined;
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof (value as { managerPin?: unknown }).managerPin !== 'string'
  )
    throw new BridgeFailure('invalid', 'The approval is { managerPin }.');
  return value as ManagerApproval;
}

export function limit(value: unknown, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw new BridgeFailure('invalid', 'The limit is a positive integer.');
  return Math.min(value, max);
}
