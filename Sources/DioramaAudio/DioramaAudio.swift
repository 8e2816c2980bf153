// DioramaAudio
