"""Tasks for the Weather app: forecasts, saved cities, units."""
