"""The national ranking ("Ranking Nazionale"): tournaments of every club, one list a year.

Pure standard library, like the game library:

- :mod:`.categories`: the ten tournament categories (GestioneTorneo's codes) and ``classe``;
- :mod:`.rules`: the rules in force each year, as data (``rules.json``);
- :mod:`.ranking`: a result's score and the year's list, exactly as RisiKoDataManager
  computes them (every reading cited there);
- :mod:`.report`: the ``risiko-report/1`` file a club sends for one tournament.

The GestioneTorneo workbooks (``.xls``) are read and written by :mod:`.workbook` (the
``national`` extra: ``xlrd``, ``xlwt``); the national list is stored by the web app's
``risiko.web.national``.
"""
