import { countryIn } from './geoip.js';

describe('countryIn', () => {
  it('reads ip-location-db and MaxMind records, and refuses what is not an ISO code', () => {
    expect(countryIn({ country_code: 'DE' })).toBe('DE');
    expect(countryIn({ country: { iso_code: 'FR' }, registered_country: { iso_code: 'BE' } })).toBe('FR');
    expect(countryIn({ registered_country: { iso_code: 'BE' } })).toBe('BE');
    expect(countryIn({ country_code: 'ZZZ' })).toBeNull();
    expect(countryIn({ country_code: 'de' })).toBeNull();
    expect(countryIn(null)).toBeNull();
  });
});
