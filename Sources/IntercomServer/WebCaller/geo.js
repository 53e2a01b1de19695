// Great-circle distance and its display. Radii as parse-server: 3958.8 mi, 6371 km.

const EARTH_KM = 6371;
const KM_PER_MILE = 1.609344;

export function distanceKm(a, b) {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2
    + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** "350 m", "2.4 km", "1.5 mi"… in the unit the locale expects (miles for en-US/en-GB/my/lr). */
export function formatDistance(km) {
  const imperial = /^(en-US|en-GB|my|en-LR)/i.test(navigator.language || '');
  if (imperial) {
    const miles = km / KM_PER_MILE;
    if (miles < 0.1) return `${Math.round(miles * 5280)} ft`;
    return `${miles < 10 ? miles.toFixed(1) : Math.round(miles)} mi`;
  }
  if (km < 1) return `${Math.round(km * 1000)} m`;
  return `${km < 10 ? km.toFixed(1) : Math.round(km)} km`;
}

/** Latitude/longitude from text; null with a reason when invalid. */
export function parseCoordinates(latText, lonText) {
  const lat = Number(String(latText).trim().replace(',', '.'));
  const lon = Number(String(lonText).trim().replace(',', '.'));
  if (String(latText).trim() === '' || !Number.isFinite(lat) || lat < -90 || lat > 90) {
    return { error: 'Latitude must be a number between -90 and 90.' };
  }
  if (String(lonText).trim() === '' || !Number.isFinite(lon) || lon < -180 || lon > 180) {
    return { error: 'Longitude must be a number between -180 and 180.' };
  }
  return { latitude: lat, longitude: lon };
}
