// DioramaPlayer
